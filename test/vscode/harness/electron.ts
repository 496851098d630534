// PI_VSCODE_TEST_ELECTRON=1: the same in-host suites through @vscode/test-electron, for
// machines that can download VS Code. No Playwright page: UI-bridge tests skip themselves.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runTests } from "@vscode/test-electron";
import { harnessEnv, type TestResult } from "../bridge-protocol";
import { FileTail } from "./artifacts";
import { lmFixture, sampleWorkspace } from "./paths";

export interface ElectronOptions {
  extensionPath: string;
  suitePath: string;
  grep?: string | undefined;
}

/** Runs on each of PI_VSCODE_ELECTRON_VERSIONS (default: the minimum from engines, and stable). */
export async function runElectron(options: ElectronOptions): Promise<number> {
  const versions = (process.env.PI_VSCODE_ELECTRON_VERSIONS ?? "1.100.3,stable").split(",").map((v) => v.trim());
  let status = 0;
  for (const version of versions) {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), `pi-vscode-electron-${version}-`));
    const workspace = path.join(stateDir, "workspace");
    fs.cpSync(sampleWorkspace, workspace, { recursive: true });
    const logFile = path.join(stateDir, "mocha.log");
    const resultFile = path.join(stateDir, "result.json");
    fs.writeFileSync(logFile, "");
    const tail = new FileTail(logFile, (text) => process.stdout.write(text));
    process.stdout.write(`[vscode-harness] @vscode/test-electron, VS Code ${version}\n`);
    try {
      await runTests({
        version,
        extensionDevelopmentPath: [options.extensionPath, lmFixture], // the test model and tool beside ours (suite/vscode-lm.test.ts)
        extensionTestsPath: options.suitePath,
        launchArgs: [
          workspace,
          "--disable-workspace-trust",
          "--skip-welcome",
          "--skip-release-notes",
          `--user-data-dir=${path.join(stateDir, "user-data")}`,
          `--extensions-dir=${path.join(stateDir, "extensions")}`,
        ],
        extensionTestsEnv: {
          [harnessEnv.logFile]: logFile,
          [harnessEnv.resultFile]: resultFile,
          ...(version === "stable" ? {} : { [harnessEnv.expectedVersion]: version }),
          ...(options.grep ? { [harnessEnv.grep]: options.grep } : {}),
        },
      });
    } catch (err) {
      process.stdout.write(`[vscode-harness] VS Code ${version}: ${err instanceof Error ? err.message : String(err)}\n`);
      status = 1;
    } finally {
      tail.stop();
    }
    if (fs.existsSync(resultFile)) {
      const result = JSON.parse(fs.readFileSync(resultFile, "utf8")) as TestResult;
      if (result.failures > 0) status = 1;
    } else {
      status = 1;
    }
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  return status;
}

// One run of the in-host suites on one code-server version: install (cached), start
// code-server, open the workbench with the test payload, echo mocha, collect the result.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { harnessEnv, type TestResult } from "../bridge-protocol";
import { FileTail, saveArtifacts } from "./artifacts";
import { startBridge, type Bridge } from "./bridge-server";
import { openWorkbench, type Workbench } from "./browser";
import { developmentOptions, ensureCodeServer, installExtension, startCodeServer, workbenchUrl, type CodeServer } from "./code-server";
import { artifactsRoot, compiledSuite, compiledVsixSuite, lmFixture, sampleWorkspace, vsixDriver } from "./paths";

export interface RunOptions {
  version: string;
  extensionPath: string;
  timeoutMs: number;
  grep?: string;
  keepState: boolean;
  /** The VSIX journey: this package is installed into the run's extensions folder and its suite
   * (test/vscode/vsix/) runs instead of the development path's. */
  vsix?: string;
  /** Registers a cleanup to run on SIGINT; returns an unregister function. */
  onInterrupt(cleanup: () => Promise<void>): () => void;
  interrupted(): boolean;
}

export interface VersionOutcome {
  version: string;
  vscodeVersion: string;
  /** The VSIX the run installed (the VSIX journey). */
  vsix?: string;
  result?: TestResult;
  error?: string;
  timings: Record<string, number>;
}

const log = (msg: string) => process.stdout.write(`[vscode-harness] ${msg}\n`);

export async function runVersion(options: RunOptions): Promise<VersionOutcome> {
  const timings: Record<string, number> = {};
  const lap = (name: string, since: number) => (timings[name] = Date.now() - since);
  const t0 = Date.now();
  const installed = ensureCodeServer(options.version);
  lap("installMs", t0);
  const vscodeVersion = readVscodeVersion(installed.dir);
  const outcome: VersionOutcome = { version: options.version, vscodeVersion, timings, ...(options.vsix ? { vsix: options.vsix } : {}) };
  log(`code-server ${options.version} (VS Code ${vscodeVersion}), extension ${options.vsix ?? options.extensionPath}`);

  const artifacts = path.join(artifactsRoot, `vscode-${options.version}${options.vsix ? "-vsix" : ""}`);
  fs.rmSync(artifacts, { recursive: true, force: true });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), `pi-vscode-${options.version}-`));
  const workspace = path.join(stateDir, "workspace");
  fs.cpSync(sampleWorkspace, workspace, { recursive: true });
  const resultFile = path.join(stateDir, "result.json");
  const logFile = path.join(stateDir, "mocha.log");
  fs.writeFileSync(logFile, "");

  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let bridge: Bridge | undefined;
  const tail = new FileTail(logFile, (text) => process.stdout.write(text));
  let cleaning: Promise<void> | undefined;
  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      tail.stop();
      await Promise.allSettled([workbench?.close(), bridge?.close(), server?.stop()]);
      if (!options.keepState) fs.rmSync(stateDir, { recursive: true, force: true });
      else log(`state kept in ${stateDir}`);
    })());
  const unregister = options.onInterrupt(cleanup);

  try {
    bridge = await startBridge(() => workbench?.page, path.join(artifacts, "screenshots"));
    const extensionsDir = path.join(stateDir, "extensions");
    if (options.vsix) {
      const t = Date.now();
      installExtension(installed, stateDir, options.vsix);
      lap("vsixInstallMs", t);
    }
    const t1 = Date.now();
    server = await startCodeServer({
      installed,
      workspace,
      stateDir,
      env: {
        [harnessEnv.bridge]: JSON.stringify(bridge.info),
        [harnessEnv.resultFile]: resultFile,
        [harnessEnv.logFile]: logFile,
        [harnessEnv.expectedVersion]: vscodeVersion,
        [harnessEnv.colors]: process.stdout.isTTY ? "1" : "0",
        ...(options.grep ? { [harnessEnv.grep]: options.grep } : {}),
        ...(options.vsix ? { [harnessEnv.installedExtensions]: extensionsDir } : {}),
      },
    });
    lap("codeServerStartMs", t1);
    log(`code-server listening on ${server.origin} after ${timings.codeServerStartMs} ms`);

    const t2 = Date.now();
    const development = developmentOptions(server, {
      // VS Code runs extension tests only beside a development extension: for the VSIX, an empty one.
      extensionDevelopmentPath: options.vsix ? vsixDriver : options.extensionPath,
      ...(options.vsix ? {} : { fixtureExtensions: [lmFixture] }),
      extensionTestsPath: options.vsix ? compiledVsixSuite : compiledSuite,
    });
    workbench = await openWorkbench(workbenchUrl(server, { folder: workspace }), { developmentOptions: development });
    const result = await waitForResult(resultFile, server, workbench, options.timeoutMs);
    lap("testsMs", t2);
    outcome.result = result;
    if (result.failures > 0) outcome.error = `${result.failures} test(s) failed`;
  } catch (err) {
    outcome.error = err instanceof Error ? err.message : String(err);
  } finally {
    tail.stop();
    if (options.interrupted()) {
      outcome.error = "interrupted";
    } else if (outcome.error) {
      log(`FAILED on code-server ${options.version}: ${outcome.error}`);
      await saveArtifacts(artifacts, {
        page: workbench?.page,
        consoleLines: workbench?.consoleLines,
        journal: bridge?.journal,
        codeServerLog: server?.logFile,
        userDataDir: server?.userDataDir,
      }).catch((err: Error) => log(`saving artifacts failed: ${err.message}`));
      log(`artifacts in ${path.relative(process.cwd(), artifacts) || artifacts}`);
    }
    await cleanup();
    unregister();
    lap("totalMs", t0);
  }
  return outcome;
}

async function waitForResult(resultFile: string, server: CodeServer, workbench: Workbench, timeoutMs: number): Promise<TestResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(resultFile)) {
      try {
        return JSON.parse(fs.readFileSync(resultFile, "utf8")) as TestResult;
      } catch {
        /* being written: read again */
      }
    }
    if (server.process.exitCode !== null) throw new Error(`code-server exited (${server.process.exitCode}) before the tests finished`);
    if (workbench.page.isClosed()) throw new Error("the workbench page closed before the tests finished");
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${Math.round(timeoutMs / 1000)} s waiting for the in-host tests to finish ` +
          `(set PI_VSCODE_TIMEOUT=<seconds> to change)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function readVscodeVersion(dir: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "lib", "vscode", "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

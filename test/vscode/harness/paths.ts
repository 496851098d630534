// Locations shared by the harness and scripts/start-code-server.mjs.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The repository root: the directory of the root package.json. (`__filename`, not
 * `__dirname`: tsx's tsImport() gives a module loaded directly a bogus `__dirname`.) */
export const repoRoot = path.resolve(path.dirname(__filename), "..", "..", "..");
export const vscodeTestDir = path.join(repoRoot, "test", "vscode");
export const sampleWorkspace = path.join(vscodeTestDir, "workspace");
export const compiledSuite = path.join(repoRoot, "dist-test", "vscode", "suite");
/** The VSIX journey's suite (test/vscode/vsix/), and the empty extension that carries it into the host. */
export const compiledVsixSuite = path.join(repoRoot, "dist-test", "vscode", "vsix");
export const vsixDriver = path.join(vscodeTestDir, "vsix", "driver");
/** A test extension registering a chat model and a language model tool (suite/vscode-lm.test.ts). */
export const lmFixture = path.join(vscodeTestDir, "lm-fixture");
export const artifactsRoot = path.join(repoRoot, ".test-artifacts");
export const installScript = path.join(repoRoot, "scripts", "install-code-server.sh");

export const cacheRoot = process.env.PI_VSCODE_CACHE ?? path.join(os.homedir(), ".cache", "pi-vscode");
export const defaultVersion = "4.100.3";
/** The versions `npm run test:vscode` runs (and scripts/ensure-test-deps.sh installs): the
 * minimum VS Code the extension supports and the newest code-server, one comma-separated line. */
export const versionsFile = path.join(vscodeTestDir, "code-server-versions");

export function defaultVersions(): string {
  return fs.readFileSync(versionsFile, "utf8").trim();
}

export function codeServerDir(version: string): string {
  return path.join(cacheRoot, `code-server-${version}`);
}

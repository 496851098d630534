// Installs (via scripts/install-code-server.sh, cached) and runs code-server on loopback with
// throw-away user data, extensions and workspace, then builds the workbench URL whose
// `payload` loads an extension from source (and, optionally, the in-host test runner).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codeServerDir, installScript } from "./paths";
import { freePort } from "../../support/free-port";

export interface Installed {
  version: string;
  dir: string;
  /** The node binary code-server must run on (Node 22 for 4.101+). */
  node: string;
}

interface Marker {
  version: string;
  node: string;
}

export function ensureCodeServer(version: string): Installed {
  const dir = codeServerDir(version);
  const markerFile = path.join(dir, ".pi-installed");
  if (!fs.existsSync(markerFile)) {
    const res = spawnSync("bash", [installScript, version], { stdio: "inherit" });
    if (res.status !== 0) throw new Error(`installing code-server ${version} failed (exit ${res.status})`);
  }
  const marker = JSON.parse(fs.readFileSync(markerFile, "utf8")) as Marker;
  return { version, dir, node: marker.node };
}

/** `code-server --install-extension <vsix>` into `stateDir`'s extensions folder (as startCodeServer lays it out). */
export function installExtension(installed: Installed, stateDir: string, vsix: string): void {
  const args = [
    path.join(installed.dir, "out", "node", "entry.js"),
    "--user-data-dir", path.join(stateDir, "user-data"),
    "--extensions-dir", path.join(stateDir, "extensions"),
    "--install-extension", vsix,
  ];
  const res = spawnSync(installed.node, args, { encoding: "utf8", env: { ...process.env, EXTENSIONS_GALLERY: "{}" } });
  if (res.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (exit ${res.status}):\n${res.stdout}${res.stderr}`);
}

// Last resort: no code-server outlives the harness, even on an abrupt process.exit().
const liveGroups = new Set<number>();
process.on("exit", () => {
  for (const pid of liveGroups) killGroup(pid, "SIGKILL");
});

export interface StartOptions {
  installed: Installed;
  /** Folder opened as the workspace. */
  workspace: string;
  /** Parent for user-data, extensions and the server log; made fresh when omitted. */
  stateDir?: string;
  /** Extra environment for code-server; it reaches the extension host. */
  env?: Record<string, string>;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  port?: number;
}

export interface CodeServer {
  port: number;
  origin: string;
  stateDir: string;
  userDataDir: string;
  /** code-server's own stdout + stderr. */
  logFile: string;
  process: ChildProcess;
  /** Resolves when the process group is gone. */
  stop(): Promise<void>;
}

export const quietSettings: Record<string, unknown> = {
  "security.workspace.trust.enabled": false,
  // code-server auto-saves after a second by default: tests compare buffers with the disk.
  "files.autoSave": "off",
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "git.enabled": false,
  "git.openRepositoryInParentFolders": "never",
  "chat.commandCenter.enabled": false,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "window.commandCenter": false,
  "editor.accessibilitySupport": "off",
  "files.hotExit": "off",
};

export async function startCodeServer(options: StartOptions): Promise<CodeServer> {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pi-vscode-"));
  const userDataDir = path.join(stateDir, "user-data");
  const extensionsDir = path.join(stateDir, "extensions");
  fs.mkdirSync(path.join(userDataDir, "User"), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, "User", "settings.json"),
    JSON.stringify({ ...quietSettings, ...options.settings }, null, 2),
  );
  // Machine-scoped settings (most of pi.*) are read from the remote's Machine settings in code-server's
  // window. The test extension's chat model (lm-fixture/) stays out of the suites' model lists:
  // the vscode-lm suite turns VS Code's models on for itself.
  fs.mkdirSync(path.join(userDataDir, "Machine"), { recursive: true });
  // PI_VSCODE_TEST_SETTINGS (JSON): more of them for a run, e.g. '{"pi.agent.shareProcess": true}'.
  const more = process.env.PI_VSCODE_TEST_SETTINGS ? (JSON.parse(process.env.PI_VSCODE_TEST_SETTINGS) as Record<string, unknown>) : {};
  fs.writeFileSync(path.join(userDataDir, "Machine", "settings.json"), JSON.stringify({ "pi.vscodeModels.enabled": false, ...more }, null, 2));
  const port = options.port ?? (await freePort());
  const configFile = path.join(stateDir, "config.yaml");
  fs.writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const logFile = path.join(stateDir, "code-server.log");
  const log = fs.openSync(logFile, "a");

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("VSCODE_")) delete env[key];
  Object.assign(env, { EXTENSIONS_GALLERY: "{}", ...options.env });
  delete env.PASSWORD;
  delete env.HASHED_PASSWORD;

  const args = [
    path.join(options.installed.dir, "out", "node", "entry.js"),
    "--config", configFile,
    "--auth", "none",
    "--bind-addr", `127.0.0.1:${port}`,
    "--user-data-dir", userDataDir,
    "--extensions-dir", extensionsDir,
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--disable-proxy",
    "--ignore-last-opened",
    options.workspace,
  ];
  // Own process group, so that stop() reaches the extension host, pty host and watchers too.
  const child = spawn(options.installed.node, args, { env, detached: true, stdio: ["ignore", log, log] });
  fs.closeSync(log);
  if (child.pid !== undefined) liveGroups.add(child.pid);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const pid = child.pid;
      if (pid === undefined) return;
      if (child.exitCode === null && child.signalCode === null) {
        killGroup(pid, "SIGTERM");
        const timer = setTimeout(() => killGroup(pid, "SIGKILL"), 3000);
        await exited;
        clearTimeout(timer);
      }
      killGroup(pid, "SIGKILL"); // stragglers of the group (extension host, pty host, watchers)
      liveGroups.delete(pid);
    })());
  const server: CodeServer = { port, origin, stateDir, userDataDir, logFile, process: child, stop };
  try {
    await waitUntilServing(origin, child, logFile, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return server;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

async function waitUntilServing(origin: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with ${child.exitCode} before serving; log:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`${origin}/healthz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`code-server did not serve ${origin} within ${timeoutMs} ms; log:\n${tail(logFile)}`);
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

export interface WorkbenchTarget {
  folder: string;
  extensionDevelopmentPath?: string;
  /** Test extensions loaded beside it (developmentOptions only: the payload takes one path). */
  fixtureExtensions?: readonly string[];
  extensionTestsPath?: string;
}

/** The workbench URL for a person to open; development paths go in the `payload` as
 * vscode-remote URIs. A built workbench of VS Code 1.139 (not 1.117) ignores the payload's
 * development paths (they are read only with the smoke-test driver on); the harness passes
 * them as `developmentOptions` instead (see developmentOptions below). */
export function workbenchUrl(server: Pick<CodeServer, "origin" | "port">, target: WorkbenchTarget): string {
  const payload: [string, string][] = [];
  const remote = (p: string) => {
    const uri = remoteUri(server, p);
    // Encoded: the workbench parses it as a URI, where a raw `#`, `?` or `%` in a path would cut it.
    return `${uri.scheme}://${uri.authority}${uri.path.split("/").map(encodeURIComponent).join("/")}`;
  };
  if (target.extensionDevelopmentPath) payload.push(["extensionDevelopmentPath", remote(target.extensionDevelopmentPath)]);
  if (target.extensionTestsPath) payload.push(["extensionTestsPath", remote(target.extensionTestsPath)]);
  const query = new URLSearchParams({ folder: target.folder });
  if (payload.length > 0) query.set("payload", JSON.stringify(payload));
  return `${server.origin}/?${query.toString()}`;
}

/** VS Code's UriComponents, as the workbench revives them. */
export interface UriComponents {
  scheme: string;
  authority: string;
  path: string;
}

/** The workbench construction options' `developmentOptions` (VS Code's
 * IDevelopmentOptions: `extensions` under development and `extensionTestsPath`). Every
 * code-server from 4.100 reads them when the URL's payload names no development path, and
 * unlike the payload, 1.139's built workbench does not ignore them. */
export interface DevelopmentOptions {
  extensions?: UriComponents[];
  extensionTestsPath?: UriComponents;
}

export function developmentOptions(server: Pick<CodeServer, "port">, target: Omit<WorkbenchTarget, "folder">): DevelopmentOptions {
  const options: DevelopmentOptions = {};
  if (target.extensionDevelopmentPath) options.extensions = [target.extensionDevelopmentPath, ...(target.fixtureExtensions ?? [])].map((p) => remoteUri(server, p));
  if (target.extensionTestsPath) options.extensionTestsPath = remoteUri(server, target.extensionTestsPath);
  return options;
}

function remoteUri(server: Pick<CodeServer, "port">, fsPath: string): UriComponents {
  return { scheme: "vscode-remote", authority: `127.0.0.1:${server.port}`, path: fsPath };
}

// `npm start` (scripts/start-code-server.mjs): builds the extension, starts code-server on
// 127.0.0.1 with the extension loaded from source (extensionDevelopmentPath) on a copy of the
// sample workspace, prints the URL to open, and runs until Ctrl-C.
// Options: --version 4.100.3  --port N  --extension <dir>  --workspace <dir>  --no-build
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureCodeServer, startCodeServer, workbenchUrl } from "./code-server";
import { defaultVersion, repoRoot, sampleWorkspace } from "./paths";

export async function startDev(argv: string[]): Promise<void> {
  const option = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (!argv.includes("--no-build")) {
    const build = spawnSync("npm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const version = option("--version") ?? defaultVersion;
  const extension = path.resolve(option("--extension") ?? repoRoot);
  const installed = ensureCodeServer(version);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-vscode-start-"));
  const workspaceOption = option("--workspace");
  const workspace = workspaceOption ? path.resolve(workspaceOption) : path.join(stateDir, "workspace");
  if (!workspaceOption) fs.cpSync(sampleWorkspace, workspace, { recursive: true });
  const port = option("--port");

  const server = await startCodeServer({ installed, workspace, stateDir, ...(port ? { port: Number(port) } : {}) });
  const url = workbenchUrl(server, { folder: workspace, extensionDevelopmentPath: extension });
  process.stdout.write(
    [
      "",
      `code-server ${version} is running with the extension from ${extension}`,
      `workspace: ${workspace}`,
      `logs:      ${server.logFile} and ${path.join(server.userDataDir, "logs")}`,
      "",
      `Open: ${url}`,
      "",
      "(Bound to 127.0.0.1 only: forward the port to reach it from another machine. Ctrl-C stops it.)",
      "",
    ].join("\n"),
  );

  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write("\nstopping code-server\n");
    await server.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  server.process.once("exit", (code) => {
    if (stopping) return;
    process.stdout.write(`code-server exited (${code}); see ${server.logFile}\n`);
    void stop(1);
  });
}

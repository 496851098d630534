// What `npm run bench:editor` needs before it starts, each got or named: a build of the extension
// and host not older than the sources (built here when missing or stale), code-server (installed
// by the harness), chromium and pi 0.87.1 (named, with the command that installs them). Without
// this a fresh checkout failed later, in the editor, with "The agent exited (code 1)".
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { chromiumPath } from "../../test/vscode/harness/browser";
import { repoRoot } from "../../test/vscode/harness/paths";
import { peerDir, peerInstalled } from "../../test/support/peers";

const built = ["dist/extension.js", "dist/agent-host.js", "dist/agent-host-main.js", "dist/webview.js"];
const sources = ["extension", "agent-host", "shared", "webview"];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Why dist/ needs a build, or undefined when it is there and newer than every source file. */
export function buildNeeded(root = repoRoot): string | undefined {
  const missing = built.filter((file) => !fs.existsSync(path.join(root, file)));
  if (missing.length) return `${missing.join(", ")} missing`;
  const oldest = Math.min(...built.map((file) => fs.statSync(path.join(root, file)).mtimeMs));
  const newest = Math.max(...sources.map((dir) => newestSource(path.join(root, dir))));
  return newest > oldest ? "dist/ is older than the sources" : undefined;
}

/** Builds dist/ when needed, then throws one error naming everything else that is missing and how to install it. */
export function ensurePrerequisites(): void {
  const why = buildNeeded();
  if (why) {
    console.log(`bench:editor: ${why}: building (node esbuild.mjs)`);
    const res = spawnSync(process.execPath, [path.join(repoRoot, "esbuild.mjs")], { cwd: repoRoot, stdio: "inherit" });
    if (res.status !== 0) throw new Error(`the build failed (exit ${res.status}): run \`npm run build\` and fix what it reports`);
  }
  const missing: string[] = [];
  if (!fs.existsSync(chromiumPath)) missing.push(`chromium (${chromiumPath}): run \`bash scripts/install-apt.sh\`, or set PI_CHROMIUM to a chromium binary`);
  if (!peerInstalled("pi")) missing.push(`pi 0.87.1 (the second agent, in ${peerDir("pi")}): run \`npm run peers:install\``);
  if (missing.length) throw new Error(`bench:editor needs:\n  - ${missing.join("\n  - ")}`);
}

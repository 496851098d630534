// `node bench/activation.mjs`: the extension's activation in plain Node (issue 31's "Activation
// ≤ 30 ms"), without VS Code: a fresh process per run requires dist/extension.js with a stand-in
// `vscode` (test/support/vscode-stub.cjs) and calls activate(), as the extension host would. Prints
// the extension's own "Activated in N ms (loading L, activate A)" line's figures, medians over the
// runs, with V8's code cache from a first run (as in a window after the first) and without one.
//   npm run bench:activation -- [--runs 9] [--no-cache] [--prof DIR] [--dist DIR]   (after npm run build)
// The figure in the editor: npm run bench:editor -- --only open (its "the extension's own" line).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};
const runs = Number(arg("--runs", "9"));
const prof = arg("--prof", undefined);
/** Another build's dist/ (e.g. a copy of the last commit's) to measure in its place. */
const dist = path.resolve(arg("--dist", path.join(root, "dist")));

/** One activation in a fresh process: `save` writes the code cache (start.ts's timer, run at once). */
const child = `
// Node's modules that VS Code's extension host has loaded before any extension (its IPC, the
// proxy support that patches http/https): requiring them again costs an extension nothing there.
for (const m of ["child_process", "crypto", "dns", "http", "https", "net", "os", "stream", "tls", "url", "util"]) require("node:" + m);
const Module = require("node:module");
const stub = require(${JSON.stringify(path.join(root, "test/support/vscode-stub.cjs"))});
const load = Module._load;
Module._load = function (request, ...rest) { return request === "vscode" ? stub : load.call(this, request, ...rest); };
const saves = [];
const setTimeout0 = globalThis.setTimeout;
globalThis.setTimeout = (fn, ms, ...a) => (ms === 20000 ? (saves.push(fn), { unref() {}, ref() {} }) : setTimeout0(fn, ms, ...a));
const started = performance.now();
const cpuBefore = process.cpuUsage();
const ext = require(${JSON.stringify(path.join(dist, "extension.js"))});
const os = require("node:os"), path = require("node:path");
const storage = path.join(process.env.XDG_CACHE_HOME, "storage");
const memento = () => { const m = new Map(); return { get: (k, d) => m.has(k) ? m.get(k) : d, update: async (k, v) => void m.set(k, v), keys: () => [...m.keys()], setKeysForSync() {} }; };
const context = { subscriptions: [], extensionPath: ${JSON.stringify(root)}, extensionUri: stub.Uri.file(${JSON.stringify(root)}), globalStorageUri: stub.Uri.file(path.join(storage, "global")), storageUri: stub.Uri.file(path.join(storage, "ws")), logUri: stub.Uri.file(path.join(storage, "log")), globalState: memento(), workspaceState: memento(), secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: () => ({ dispose() {} }) }, extensionMode: 1, environmentVariableCollection: {} };
ext.activate(context);
const total = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
if (process.argv.includes("save")) for (const fn of saves) fn();
const line = stub.__log.find((m) => m.startsWith("Activated in"));
const m = /Activated in ([\\d.]+) ms \\(loading ([\\d.]+) ms, activate ([\\d.]+) ms(?:; code cache (\\w+))?/.exec(line ?? "");
process.stdout.write(JSON.stringify({ own: +m[1], loading: +m[2], activate: +m[3], cache: m[4] ?? "not said", total, cpu: (cpu.user + cpu.system) / 1000, counts: stub.__counts }));
for (const d of context.subscriptions) d.dispose();
process.exit(0);
`;

function run(cacheHome, extra = [], env = {}) {
  const result = spawnSync(process.execPath, [...extra, "-e", child, "--", ...(extra.includes("save") ? ["save"] : [])], { env: { ...process.env, XDG_CACHE_HOME: cacheHome, ...env }, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`activation failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), "pi-activation-"));
try {
  fs.mkdirSync(cacheHome, { recursive: true, mode: 0o700 });
  const modes = [["with the code cache", {}], ...(process.argv.includes("--no-cache") ? [["without a code cache", { NODE_DISABLE_COMPILE_CACHE: "1" }]] : [])];
  const saveRun = spawnSync(process.execPath, ["-e", child, "--", "save"], { env: { ...process.env, XDG_CACHE_HOME: cacheHome }, encoding: "utf8" });
  if (saveRun.status !== 0) throw new Error(`activation failed: ${saveRun.stderr}`);
  const counts = JSON.parse(saveRun.stdout).counts;
  for (const [label, env] of modes) {
    const results = Array.from({ length: runs }, () => run(cacheHome, [], env));
    const f = (k) => median(results.map((r) => r[k])).toFixed(1);
    // CPU time: the process's, from requiring dist/extension.js to activate's end (V8's helper threads too); less swayed by a busy machine.
    console.log(`${label}: activation ${f("own")} ms (loading ${f("loading")}, activate ${f("activate")}), CPU ${f("cpu")} ms; goal ≤ 30 ms; median of ${runs} (code cache: ${[...new Set(results.map((r) => r.cache))].join(", ")})`);
  }
  if (prof) {
    run(cacheHome, ["--cpu-prof", "--cpu-prof-interval", "50", "--cpu-prof-dir", prof]);
    console.log(`CPU profile in ${prof}`);
  }
  console.log(`registered: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")}`);
} finally {
  fs.rmSync(cacheHome, { recursive: true, force: true });
}

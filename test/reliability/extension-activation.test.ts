// Activation does only what a window needs before Pi is used (#31: "Activation ≤ 30 ms"). The
// built bundle is loaded by dist/extension.js in a plain Node process, as the extension host
// would, with a stand-in for `vscode` (test/support/vscode-stub.cjs), and activate() is called.
// The figures are bench/activation.mjs's; this checks the mechanisms that keep them down.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { isAscii } from "node:buffer";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dist = join(__dirname, "../../dist");
const stub = join(__dirname, "../support/vscode-stub.cjs");

/** What an activation in a fresh process required (ids as written), and what it returned. */
function activate(): { required: string[]; api: string[]; counts: Record<string, number> } {
  const cacheHome = mkdtempSync(join(tmpdir(), "extension-activation-"));
  try {
    const child = `
      const Module = require("node:module");
      const stub = require(${JSON.stringify(stub)});
      const required = [];
      const load = Module._load;
      Module._load = function (request, ...rest) { required.push(request); return request === "vscode" ? stub : load.call(this, request, ...rest); };
      const ext = require(${JSON.stringify(join(dist, "extension.js"))});
      const uri = (p) => stub.Uri.file(p);
      const memento = () => { const m = new Map(); return { get: (k, d) => (m.has(k) ? m.get(k) : d), update: async (k, v) => void m.set(k, v), keys: () => [...m.keys()], setKeysForSync() {} }; };
      const home = process.env.XDG_CACHE_HOME;
      const context = { subscriptions: [], extensionPath: ${JSON.stringify(join(dist, ".."))}, extensionUri: uri(${JSON.stringify(join(dist, ".."))}), globalStorageUri: uri(home + "/global"), storageUri: uri(home + "/ws"), logUri: uri(home + "/log"), globalState: memento(), workspaceState: memento(), secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: () => ({ dispose() {} }) } };
      const api = ext.activate(context);
      process.stdout.write(JSON.stringify({ required, api: Object.keys(api), counts: stub.__counts }));
      process.exit(0);`;
    const run = spawnSync(process.execPath, ["-e", child], { env: { ...process.env, XDG_CACHE_HOME: cacheHome, NODE_DISABLE_COMPILE_CACHE: "1" }, encoding: "utf8", timeout: 30_000 });
    assert.equal(run.status, 0, `activation failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as { required: string[]; api: string[]; counts: Record<string, number> };
  } finally {
    rmSync(cacheHome, { recursive: true, force: true });
  }
}

describe("extension: activation loads only what a window needs before Pi is used", function () {
  this.timeout(60_000);

  it("its bundle is ASCII only (one other character makes V8 hold and decode it as a two-byte string)", function () {
    for (const file of ["extension.js", "extension-main.js"]) {
      const bytes = readFileSync(join(dist, file));
      const other = [...bytes.toString("utf8")].filter((c) => c.charCodeAt(0) > 0x7f);
      assert.ok(isAscii(bytes), `${file} holds ${other.length} non-ASCII characters: ${other.slice(0, 10).join(" ")}`);
    }
  });

  it("activates without reading a library kept apart (jsdiff, AJV, proper-lockfile, the frame checks)", function () {
    const { required, api, counts } = activate();
    assert.ok(api.includes("sessions") && api.includes("review"), `activate returned ${api.join(", ")}`);
    assert.ok(counts.registerCommand > 40, `only ${counts.registerCommand} commands registered: the stand-in did not run activate through`);
    const apart = required.filter((id) => /(^|\/)(diff|ajv|proper-lockfile|yaml|ignore|minimatch|client-validators|acp-sdk)\.js$/.test(id));
    assert.deepEqual(apart, [], "activation required files apart from the bundle");
  });

  it("registers no code lens provider while there is nothing to review (the workbench asks one for every editor, after every edit)", function () {
    const { counts } = activate();
    assert.equal(counts.registerCodeLensProvider ?? 0, 0, "a code lens provider is registered at activation");
  });

  it("loads every file apart that the bundle names through the code cache (dist/extension.js's list)", function () {
    const bundle = readFileSync(join(dist, "extension-main.js"), "utf8");
    const named = new Set([...bundle.matchAll(/require\("\.\/([\w.-]+\.js)"\)|__dirname, "([\w.-]+\.js)"\)/g)].map((m) => `./${m[1] ?? m[2]}`));
    const list = /new Set\((\[[^\]]*\])\)/.exec(readFileSync(join(dist, "extension.js"), "utf8"));
    assert.ok(list, "dist/extension.js names no files apart: they load without the code cache");
    const cached = new Set(JSON.parse(list[1]) as string[]);
    assert.ok(named.size >= 4, `the bundle names only ${[...named].join(", ")}`);
    assert.deepEqual([...named].filter((file) => !cached.has(file)), [], "files apart loaded without the code cache");
  });
});

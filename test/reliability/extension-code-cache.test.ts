// dist/extension.js loads the extension's bundle with a V8 code cache kept in the user's private
// cache folder (#31: activation). V8 checks a cache only against the source's length, so a cache
// made from other code of the same length, under the name the loader looks for, would run in the
// extension host, every extension's process. Each case plants such a cache (code that writes a
// marker file) and loads dist/extension.js in a plain Node process: the bundle itself then stops
// at `require("vscode")`, which shows that it, not the planted code, ran.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evilCache } from "../support/planted-code-cache";

const entry = join(__dirname, "../../dist/extension.js");
const bundle = join(__dirname, "../../dist/extension-main.js");

/** The name the loader gives this build's cache (shared/node/code-cache.ts). */
function cacheName(): string {
  const hash = createHash("sha256").update(readFileSync(bundle, "utf8")).digest("hex").slice(0, 32);
  return `extension-main-${process.version}-${process.arch}-${hash}.bin`;
}

function load(cacheHome: string, marker: string) {
  const { NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  return spawnSync(process.execPath, ["-e", `require(${JSON.stringify(entry)})`], { env: { ...inherited, XDG_CACHE_HOME: cacheHome, PLANT_MARKER: marker }, encoding: "utf8", timeout: 20_000 });
}

describe("extension: its code cache is read only from the user's private folder", function () {
  this.timeout(60_000);
  let root: string;
  let cache: Buffer;
  before(() => {
    cache = evilCache(readFileSync(bundle, "utf8").length, bundle);
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "extension-code-cache-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("ignores a cache in a folder open to others; the same file in the user's own folder is what V8 would run", function () {
    const cacheHome = join(root, "cache");
    const folder = join(cacheHome, "pi-agent-vscode");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, cacheName()), cache, { mode: 0o600 });
    chmodSync(folder, 0o777);
    const marker = join(root, "marker");
    const opened = load(cacheHome, marker);
    assert.equal(existsSync(marker), false, "a cache in a folder open to others ran in the extension host");
    assert.match(opened.stderr, /Cannot find module 'vscode'/, "the bundle itself ran (and stopped at the editor's API)");
    // The control: closed again, the same planted file is taken: only the folder's check stopped it.
    chmodSync(folder, 0o700);
    load(cacheHome, marker);
    assert.equal(existsSync(marker), true, "V8 did not take the planted cache even from the private folder: this test shows nothing");
  });

  it("makes its folder private, and never takes a cache named for another build", function () {
    const cacheHome = join(root, "cache");
    const folder = join(cacheHome, "pi-agent-vscode");
    mkdirSync(cacheHome, { recursive: true });
    const marker = join(root, "marker");
    const first = load(cacheHome, marker);
    assert.match(first.stderr, /Cannot find module 'vscode'/);
    assert.equal(statSync(folder).mode & 0o077, 0, "the cache folder is closed to others");
    // Another build's cache (its own hash in the name) beside ours: not read.
    writeFileSync(join(folder, cacheName().replace(/-[0-9a-f]{32}\.bin$/, `-${"0".repeat(32)}.bin`)), cache, { mode: 0o600 });
    load(cacheHome, marker);
    assert.equal(existsSync(marker), false, "a cache named for another build ran");
  });
});

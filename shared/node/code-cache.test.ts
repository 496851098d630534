// Files apart (what a bundle requires beside it when first needed) run through the code cache
// as the bundle does, and their caches are written when the caller says (#31: the extension's
// frame checks compiled in ~11 ms at the first frame, ~2 from a cache).
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWithCodeCache, type CachedRun } from "./code-cache";

describe("code cache: files apart", () => {
  let root: string;
  let bundle: string;
  let cacheDir: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "code-cache-"));
    bundle = join(root, "dist", "main.js");
    cacheDir = join(root, "cache");
    mkdirSync(join(root, "dist"));
    mkdirSync(cacheDir, { mode: 0o700 });
    writeFileSync(bundle, 'module.exports = { apart: () => require("./apart.js"), beside: () => require(require("node:path").join(__dirname, "apart.js")) };');
    writeFileSync(join(root, "dist", "apart.js"), "module.exports = { answer: 42 };");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function run(seen: Array<{ file: string; loaded: CachedRun }>) {
    return runWithCodeCache(bundle, cacheDir, { filesApart: new Set(["./apart.js"]), onFileApart: (file, loaded) => seen.push({ file, loaded }) }).exports as { apart(): unknown; beside(): unknown };
  }

  it("loads a file apart through the cache, once, by its relative or absolute name, and writes its cache when told", () => {
    const first: Array<{ file: string; loaded: CachedRun }> = [];
    const bundleExports = run(first);
    assert.equal(first.length, 0, "a file apart was loaded before it was required");
    assert.deepEqual(bundleExports.apart(), { answer: 42 });
    assert.equal(bundleExports.beside(), bundleExports.apart(), "the absolute name is the same file apart, loaded once");
    assert.equal(first.length, 1);
    assert.equal(first[0].file, "./apart.js");
    assert.equal(first[0].loaded.cache, "none");
    assert.ok(first[0].loaded.save, "no cache to write for a file apart loaded without one");
    assert.ok(!readdirSync(cacheDir).some((name) => name.startsWith("apart-")), "a file apart's cache was written before it was asked for");
    first[0].loaded.save();
    assert.ok(readdirSync(cacheDir).some((name) => name.startsWith("apart-")), "no cache written for the file apart");

    const second: Array<{ file: string; loaded: CachedRun }> = [];
    run(second).apart();
    assert.equal(second[0].loaded.cache, "taken", "the next run did not take the file apart's cache");
    assert.equal(second[0].loaded.save, undefined, "a cache taken is written again");
  });
});

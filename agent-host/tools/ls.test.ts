import { strict as assert } from "node:assert";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createLsTool, type LsToolDetails } from "./ls";
import { run, tempDir, textOf, writeTree } from "./test-support";

describe("tools/ls", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("lists entries sorted case-insensitively, dotfiles included, directories with /", async () => {
    writeTree(dir, { "b.txt": "", "A.md": "", ".env": "", "src/x.ts": "", "Zeta/y": "" });
    symlinkSync(join(dir, "src"), join(dir, "link-to-dir"));
    symlinkSync(join(dir, "missing"), join(dir, "dangling"));
    const { result } = await run(createLsTool(dir), {});
    assert.equal(textOf(result), ".env\nA.md\nb.txt\nlink-to-dir/\nsrc/\nZeta/");
    assert.equal(result.details, undefined);
  });

  it("lists a given path and stops at the limit", async () => {
    writeTree(dir, { "d/1": "", "d/2": "", "d/3": "" });
    const { result } = await run(createLsTool(dir), { path: "d", limit: 2 });
    assert.equal(textOf(result), "1\n2\n\n[2 entries limit reached. Use limit=4 for more]");
    assert.deepEqual(result.details as LsToolDetails, { entryLimitReached: 2 });
  });

  it("says when a directory is empty, missing or not a directory", async () => {
    mkdirSync(join(dir, "empty"));
    writeTree(dir, { "file.txt": "x" });
    const tool = createLsTool(dir);
    assert.equal(textOf((await run(tool, { path: "empty" })).result), "(empty directory)");
    const missing = (await run(tool, { path: "nope" })).result;
    assert.equal(missing.isError, true);
    assert.equal(textOf(missing), `Path not found: ${join(dir, "nope")}`);
    assert.equal(textOf((await run(tool, { path: "file.txt" })).result), `Not a directory: ${join(dir, "file.txt")}`);
  });

  it("cuts a huge listing at 50KB", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`${String(i).padStart(3, "0")}-${"n".repeat(150)}`] = "";
    writeTree(dir, files);
    const { result } = await run(createLsTool(dir), { limit: 1000 });
    assert.match(textOf(result), /\n\n\[50\.0KB limit reached\]$/);
    assert.equal((result.details as LsToolDetails).truncation?.truncated, true);
  });

  it("lists through its ListIo seam and stops when aborted", async () => {
    const tool = createLsTool("/virtual", {
      io: {
        exists: async () => true,
        stat: async (p) => ({ isDirectory: () => p === "/virtual" || p.endsWith("dir"), isFile: () => false, size: 0 }),
        readdir: async () => ["file", "dir"],
      },
    });
    assert.equal(textOf((await run(tool, {})).result), "dir/\nfile");
    const controller = new AbortController();
    controller.abort();
    assert.equal(textOf((await run(tool, {}, controller.signal)).result), "Operation aborted");
  });
});

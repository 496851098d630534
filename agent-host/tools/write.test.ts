import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, tempDir, textOf } from "./test-support";
import { createWriteTool } from "./write";

describe("tools/write", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("creates the file and its parent directories", async () => {
    const { result } = await run(createWriteTool(dir), { path: "deep/er/new.txt", content: "hello\n" });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), "Successfully wrote to deep/er/new.txt");
    assert.equal(readFileSync(join(dir, "deep/er/new.txt"), "utf-8"), "hello\n");
  });

  it("overwrites an existing file", async () => {
    writeFileSync(join(dir, "f.txt"), "old content that is longer");
    await run(createWriteTool(dir), { path: "f.txt", content: "new" });
    assert.equal(readFileSync(join(dir, "f.txt"), "utf-8"), "new");
  });

  it("fails when a file is in the way of a parent directory (even as root)", async () => {
    writeFileSync(join(dir, "blocker"), "I am a file");
    const { result } = await run(createWriteTool(dir), { path: "blocker/child.txt", content: "x" });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /EEXIST|ENOTDIR/);
    assert.equal(readFileSync(join(dir, "blocker"), "utf-8"), "I am a file");
  });

  it("fails when the target is a directory", async () => {
    const { result } = await run(createWriteTool(dir), { path: ".", content: "x" });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /EISDIR/);
  });

  it("refuses a FIFO at once (opening one to write waited for a reader, for good)", async () => {
    execFileSync("mkfifo", [join(dir, "pipe")]);
    const { result } = await run(createWriteTool(dir), { path: "pipe", content: "x" });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /is not a regular file/);
  });

  it("does nothing when aborted before it starts", async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await run(createWriteTool(dir), { path: "never.txt", content: "x" }, controller.signal);
    assert.equal(textOf(result), "Operation aborted");
    assert.equal(existsSync(join(dir, "never.txt")), false);
  });

  it("serialises writes to the same file in call order", async () => {
    const order: string[] = [];
    const io = {
      mkdir: async () => {},
      writeFile: async (_p: string, content: string) => {
        order.push(`start ${content}`);
        await new Promise((r) => setTimeout(r, content === "first" ? 30 : 1));
        order.push(`end ${content}`);
      },
    };
    const tool = createWriteTool(dir, { io });
    await Promise.all([run(tool, { path: "same.txt", content: "first" }), run(tool, { path: "same.txt", content: "second" })]);
    assert.deepEqual(order, ["start first", "end first", "start second", "end second"]);
  });
});

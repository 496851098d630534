import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readStoredFile, readStoredFileAsync } from "./stored-file";

describe("stored file: the one way a checkpoint store's file is read", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "stored-file-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [name, read] of [
    ["at once", (file: string, max: number) => Promise.resolve(readStoredFile(file, max))],
    ["off the event loop's thread", readStoredFileAsync],
  ] as const) {
    it(`${name}: reads a regular file whole, and refuses a link, a FIFO (without waiting on it), a larger file and a missing one`, async () => {
      const file = path.join(dir, "m.jsonl");
      fs.writeFileSync(file, "one\ntwo\n");
      const whole = await read(file, 100);
      assert.ok("content" in whole && whole.content.toString() === "one\ntwo\n" && whole.from === 0);
      assert.deepEqual(await read(file, 7), { refused: "tooLarge" });
      assert.deepEqual(await read(path.join(dir, "none"), 100), { refused: "missing" });
      const secret = path.join(dir, "secret");
      fs.writeFileSync(secret, "key");
      fs.symlinkSync(secret, path.join(dir, "link"));
      assert.deepEqual(await read(path.join(dir, "link"), 100), { refused: "notAFile" });
      execFileSync("mkfifo", [path.join(dir, "fifo")]);
      assert.deepEqual(await read(path.join(dir, "fifo"), 100), { refused: "notAFile" });
      fs.mkdirSync(path.join(dir, "folder"));
      assert.deepEqual(await read(path.join(dir, "folder"), 100), { refused: "notAFile" });
    });
  }

  it("reads on from where it stopped while the name is the same file and no shorter, else whole", () => {
    const file = path.join(dir, "m.jsonl");
    fs.writeFileSync(file, "one\n");
    const first = readStoredFile(file, 100);
    assert.ok("content" in first);
    fs.appendFileSync(file, "two\n");
    const next = readStoredFile(file, 100, { identity: first.identity, offset: first.content.length });
    assert.ok("content" in next && next.content.toString() === "two\n" && next.from === 4);
    // Cut short: whole again.
    fs.writeFileSync(file, "x\n");
    const cut = readStoredFile(file, 100, { identity: first.identity, offset: 8 });
    assert.ok("content" in cut && cut.content.toString() === "x\n" && cut.from === 0);
    // Another file at the name: whole again.
    fs.rmSync(file);
    fs.writeFileSync(file, "another file, longer\n");
    const other = readStoredFile(file, 100, { identity: first.identity, offset: 2 });
    assert.ok("content" in other && other.content.toString() === "another file, longer\n" && other.from === 0);
  });
});

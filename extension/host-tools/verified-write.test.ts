import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeVerified } from "./verified-write";

describe("editor: a write judged on the file really opened (verified-write.ts)", () => {
  let root: string;
  let ws: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "verified-write-")));
    ws = join(root, "ws");
    mkdirSync(ws);
    writeFileSync(join(root, "outside.txt"), "OUTSIDE\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const write = (name: string, judge = (_real: string): string | undefined => undefined) => writeVerified(join(ws, name), "NEW\n", [ws], judge, name);

  it("makes a new file (and its folders), rewrites one in place", async () => {
    await write("a/b.txt");
    assert.equal(readFileSync(join(ws, "a/b.txt"), "utf8"), "NEW\n");
    writeFileSync(join(ws, "c.txt"), "a much longer old text\n");
    await write("c.txt");
    assert.equal(readFileSync(join(ws, "c.txt"), "utf8"), "NEW\n");
  });

  it("refuses a link out of the workspace, a FIFO (without hanging) and what the judge refuses, writing nothing and leaving no file made", async () => {
    symlinkSync(join(root, "outside.txt"), join(ws, "out"));
    await assert.rejects(write("out"), /leads outside the workspace/);
    assert.equal(readFileSync(join(root, "outside.txt"), "utf8"), "OUTSIDE\n");
    execFileSync("mkfifo", [join(ws, "pipe")]);
    // No reader: the open fails at once (ENXIO); with one, the file opened is not a regular file.
    await assert.rejects(write("pipe"), /not a regular file|ENXIO/);
    await assert.rejects(write("secret.txt", () => "hidden"), /hidden/);
    assert.ok(!existsSync(join(ws, "secret.txt")), "the file made for it removed");
    writeFileSync(join(ws, "kept.txt"), "KEPT\n");
    await assert.rejects(write("kept.txt", () => "protected"), /protected/);
    assert.equal(readFileSync(join(ws, "kept.txt"), "utf8"), "KEPT\n", "not truncated before it was judged");
  });
});

import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { followManifest } from "./checkpoint-manifest";
import { captureText, manifestPath, readRecords, recordCaptured } from "./checkpoint-store";

describe("checkpoint manifest, followed as it grows", () => {
  let store: string;
  beforeEach(() => (store = fs.mkdtempSync(path.join(os.tmpdir(), "manifest-"))));
  afterEach(() => fs.rmSync(store, { recursive: true, force: true }));

  const record = (name: string, session = "s1") => recordCaptured(store, session, "t1", `/work/${name}`, captureText(name, 1000));
  const paths = (records: readonly { path: string }[]) => records.map((r) => r.path);

  it("gives the records appended since each look, in order, as a whole read does", () => {
    const follower = followManifest(manifestPath(store, "s1"));
    assert.deepEqual(follower.records(), [], "no manifest yet");
    record("a");
    record("b");
    assert.deepEqual(paths(follower.records()), ["/work/a", "/work/b"]);
    const seen = follower.records();
    assert.equal(follower.records(), seen, "nothing appended: the same records, not read again");
    record("c");
    assert.deepEqual(paths(follower.records()), ["/work/a", "/work/b", "/work/c"]);
    assert.deepEqual(follower.records(), readRecords(store, "s1"));
  });

  it("reads only what was appended: the earlier bytes are not parsed again", () => {
    const file = manifestPath(store, "s1");
    const follower = followManifest(file);
    record("a");
    assert.equal(follower.records().length, 1);
    // The first line spoiled in place (same file, same size): a whole read would drop it.
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, "#", 0);
    fs.closeSync(fd);
    record("b");
    assert.deepEqual(paths(follower.records()), ["/work/a", "/work/b"]);
    assert.deepEqual(paths(readRecords(store, "s1")), ["/work/b"], "a whole read drops the spoiled line");
  });

  it("waits for a line still being appended to end", () => {
    const file = manifestPath(store, "s1");
    const follower = followManifest(file);
    record("a");
    const line = `${JSON.stringify({ turn: "t1", path: "/work/é-b", before: null, time: 1 })}\n`;
    const cut = Buffer.byteLength(line) - 8;
    fs.appendFileSync(file, Buffer.from(line).subarray(0, cut));
    assert.deepEqual(paths(follower.records()), ["/work/a"], "the torn line is not taken");
    fs.appendFileSync(file, Buffer.from(line).subarray(cut));
    assert.deepEqual(paths(follower.records()), ["/work/a", "/work/é-b"]);
  });

  it("reads a manifest pruned and begun again whole, though the new file got the old one's inode back", () => {
    const file = manifestPath(store, "s1");
    const follower = followManifest(file);
    record("a");
    assert.deepEqual(paths(follower.records()), ["/work/a"]);
    const { ino: inode, size: readBefore } = fs.statSync(file);
    fs.rmSync(file); // pruned
    // Recorded again (a file that did not exist before: no object is stored to take the inode first).
    const line = (name: string) => `${JSON.stringify({ turn: "t2", path: `/work/${name}`, before: null, time: 2 })}\n`;
    fs.appendFileSync(file, line("b") + line("c") + line("d"));
    assert.equal(fs.statSync(file).ino, inode, "this file system gave the inode back (the case under test)");
    assert.ok(fs.statSync(file).size > readBefore, "longer than what was read of the old file");
    assert.deepEqual(paths(follower.records()), ["/work/b", "/work/c", "/work/d"]);
  });

  it("reads a manifest again whole when it is replaced or cut short, and none through a link or a FIFO", () => {
    const file = manifestPath(store, "s1");
    const follower = followManifest(file);
    record("a");
    record("b");
    assert.equal(follower.records().length, 2);
    // Replaced by another file (a rename over it), longer than what was read.
    const other = `${file}.new`;
    fs.writeFileSync(other, ["x", "y", "z"].map((name) => JSON.stringify({ turn: "t", path: `/work/${name}`, before: null, time: 1 })).join("\n") + "\n");
    fs.renameSync(other, file);
    assert.deepEqual(paths(follower.records()), ["/work/x", "/work/y", "/work/z"]);
    // Cut short in place.
    fs.truncateSync(file, 0);
    record("c");
    assert.deepEqual(paths(follower.records()), ["/work/c"]);
    // A link at its name (to a manifest elsewhere), then a FIFO: no records, no hang.
    const elsewhere = path.join(store, "elsewhere.jsonl");
    fs.copyFileSync(file, elsewhere);
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    assert.deepEqual(follower.records(), []);
    fs.rmSync(file);
    execFileSync("mkfifo", [file]);
    assert.deepEqual(follower.records(), []);
    fs.rmSync(file);
    assert.deepEqual(follower.records(), [], "gone");
  });
});

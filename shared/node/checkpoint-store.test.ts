import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { restorePlan } from "../checkpoints/restore-plan";
import type { CheckpointRecord } from "../checkpoints/schema";
import { pruneStore } from "./checkpoint-prune";
import { captureFile, createCheckpointRecorder, manifestPath, objectPath, readObject, readRecords, recordCaptured } from "./checkpoint-store";

describe("checkpoint store", () => {
  let root: string;
  let store: string;
  let work: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "checkpoints-"));
    store = path.join(root, "store");
    work = path.join(root, "work");
    fs.mkdirSync(work);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const file = (name: string, content?: string) => {
    const p = path.join(work, name);
    if (content !== undefined) fs.writeFileSync(p, content);
    return p;
  };

  it("records a file's content by hash and a missing file as null", () => {
    const a = file("a.txt", "alpha");
    const record = recordCaptured(store, "s1", "t1", a, captureFile(a, 1000));
    assert.match(record.before ?? "", /^[0-9a-f]{64}$/);
    assert.equal(readObject(store, record.before!)?.toString(), "alpha");
    const missing = recordCaptured(store, "s1", "t1", file("new.txt"), captureFile(file("new.txt"), 1000));
    assert.equal(missing.before, null);
    assert.equal(missing.skipped, undefined);
    assert.deepEqual(readRecords(store, "s1").map((r) => [path.basename(r.path), r.turn]), [["a.txt", "t1"], ["new.txt", "t1"]]);
  });

  it("stores equal contents once", () => {
    const a = file("a.txt", "same");
    const b = file("b.txt", "same");
    const ra = recordCaptured(store, "s1", "t1", a, captureFile(a, 1000));
    const rb = recordCaptured(store, "s1", "t1", b, captureFile(b, 1000));
    assert.equal(ra.before, rb.before);
    assert.equal(fs.readdirSync(path.join(store, "objects")).length, 1);
  });

  it("skips files over the size bound, and says so", () => {
    const big = file("big.bin", "x".repeat(2000));
    const record = recordCaptured(store, "s1", "t1", big, captureFile(big, 1000));
    assert.equal(record.skipped, "tooLarge");
    assert.equal(record.before, null);
    assert.equal(fs.existsSync(path.join(store, "objects")), false);
  });

  it("keeps the first record of a path in a turn; a new turn records again", () => {
    const record = createCheckpointRecorder(store, 1000);
    const a = file("a.txt", "v1");
    assert.ok(record("s1", "t1", a));
    fs.writeFileSync(a, "v2");
    assert.equal(record("s1", "t1", a), undefined, "second record in the same turn is not written");
    assert.ok(record("s1", "t2", a));
    const records = readRecords(store, "s1");
    assert.deepEqual(records.map((r) => readObject(store, r.before!)?.toString()), ["v1", "v2"]);
  });

  it("skips torn or invalid manifest lines", () => {
    const a = file("a.txt", "x");
    recordCaptured(store, "s1", "t1", a, captureFile(a, 1000));
    fs.appendFileSync(manifestPath(store, "s1"), '{"turn":"t2","path":"/x","before":"nothex","time":1}\n{"turn":"t3","pa');
    assert.equal(readRecords(store, "s1").length, 1);
    assert.deepEqual(readRecords(store, "no-such-session"), []);
  });
});

describe("restore plan", () => {
  const rec = (turn: string, p: string, before: string | null, time: number, skipped?: CheckpointRecord["skipped"]): CheckpointRecord => ({
    turn, path: p, before, time, ...(skipped ? { skipped } : {}),
  });
  const h = (c: string) => c.repeat(64);

  it("restores every path of the chosen turns to its earliest content, deleting files that did not exist", () => {
    const records = [
      rec("t1", "/a", h("1"), 10), // before the chosen turns: not undone
      rec("t2", "/a", h("2"), 20),
      rec("t2", "/new", null, 21),
      rec("t3", "/a", h("3"), 30),
      rec("t3", "/b", h("4"), 31),
    ];
    assert.deepEqual(restorePlan(records, { turns: new Set(["t2", "t3"]) }), [
      { path: "/a", action: "write", hash: h("2") },
      { path: "/new", action: "delete" },
      { path: "/b", action: "write", hash: h("4") },
    ]);
    assert.deepEqual(restorePlan(records, { turns: new Set(["t3"]) }).map((s) => s.path), ["/a", "/b"]);
  });

  it("orders records of several manifests by time, and takes records since the message from other branches", () => {
    const parent = [rec("t1", "/a", h("1"), 10), rec("gone", "/c", h("5"), 40)];
    const child = [rec("t4", "/a", h("6"), 50)];
    const plan = restorePlan([...child, ...parent], { turns: new Set(["t1", "t4"]), since: 10 });
    assert.deepEqual(plan, [
      { path: "/a", action: "write", hash: h("1") },
      { path: "/c", action: "write", hash: h("5") },
    ]);
  });

  it("reports skipped files as unavailable", () => {
    assert.deepEqual(restorePlan([rec("t1", "/big", null, 1, "tooLarge")], { turns: new Set(["t1"]) }), [
      { path: "/big", action: "unavailable", reason: "too large to keep" },
    ]);
  });
});

describe("pruning the store", () => {
  let store: string;
  beforeEach(() => (store = fs.mkdtempSync(path.join(os.tmpdir(), "checkpoint-prune-"))));
  afterEach(() => fs.rmSync(store, { recursive: true, force: true }));

  /** A session with one 1000-byte object, its manifest dated `age` ms ago. */
  function session(id: string, fill: string, ageMs: number, now: number) {
    const record = recordCaptured(store, id, "t", `/${id}`, { content: Buffer.from(fill.repeat(1000)) }, now - ageMs);
    const then = new Date(now - ageMs);
    fs.utimesSync(manifestPath(store, id), then, then);
    fs.utimesSync(objectPath(store, record.before!), then, then);
    return record.before!;
  }

  it("removes the oldest manifests and their objects until the store fits, keeping sessions in use", async () => {
    const now = Date.now();
    const oldest = session("old", "a", 300_000, now);
    const middle = session("mid", "b", 200_000, now);
    const current = session("cur", "c", 400_000, now);
    const result = await pruneStore(store, { maxBytes: 2500, keep: new Set(["cur"]), now });
    assert.equal(result.removedManifests, 1);
    assert.equal(result.removedObjects, 1);
    assert.ok(result.bytesAfter <= 2500, `${result.bytesAfter} bytes left`);
    assert.equal(fs.existsSync(objectPath(store, oldest)), false);
    assert.equal(fs.existsSync(objectPath(store, middle)), true);
    assert.equal(fs.existsSync(objectPath(store, current)), true, "the session in use is kept although it is the oldest");
    assert.equal(readRecords(store, "cur").length, 1);
  });

  it("keeps objects another session still refers to, and leaves a store within budget alone", async () => {
    const now = Date.now();
    const shared = session("one", "s", 300_000, now);
    session("two", "s", 100_000, now);
    const result = await pruneStore(store, { maxBytes: 1200, now });
    assert.equal(result.removedManifests, 1);
    assert.equal(fs.existsSync(objectPath(store, shared)), true);
    const again = await pruneStore(store, { maxBytes: 1_000_000, now });
    assert.deepEqual([again.removedManifests, again.removedObjects], [0, 0]);
  });

  it("runs in the background, so it asks again before each removal: a session that came into use meanwhile keeps its manifest, an object reused meanwhile stays", async () => {
    const now = Date.now();
    const oldest = session("old", "a", 300_000, now);
    const middle = session("mid", "b", 200_000, now);
    session("new", "c", 100_000, now);
    const inUse = new Set<string>();
    let asked = 0;
    const keep = () => {
      // While the prune runs: "mid" is resumed, and a record of another session reuses the oldest's object (touched).
      if (++asked === 1) {
        inUse.add("mid");
        const later = new Date(now - 1_000);
        fs.utimesSync(objectPath(store, oldest), later, later);
      }
      return inUse;
    };
    const result = await pruneStore(store, { maxBytes: 500, keep, now });
    assert.equal(fs.existsSync(manifestPath(store, "old")), false, "the oldest manifest goes");
    assert.equal(fs.existsSync(objectPath(store, oldest)), true, "its object, reused since it was listed, stays");
    assert.equal(fs.existsSync(manifestPath(store, "mid")), true, "the session that came into use keeps its manifest");
    assert.equal(fs.existsSync(objectPath(store, middle)), true);
    assert.equal(fs.existsSync(manifestPath(store, "new")), false, "the rest goes, to fit");
    assert.equal(result.removedManifests, 2);
  });

  it("collects unreferenced objects (over budget) only after a grace period, and copes with a missing store", async () => {
    const now = Date.now();
    const hash = session("x", "q", 0, now);
    fs.rmSync(manifestPath(store, "x"));
    assert.equal((await pruneStore(store, { maxBytes: 100, now })).removedObjects, 0, "a fresh object may be about to be referenced");
    assert.equal((await pruneStore(store, { maxBytes: 100, now: now + 120_000 })).removedObjects, 1);
    assert.equal(fs.existsSync(objectPath(store, hash)), false);
    assert.deepEqual(await pruneStore(path.join(store, "missing"), { maxBytes: 0 }), { bytesBefore: 0, bytesAfter: 0, removedManifests: 0, removedObjects: 0 });
  });
});

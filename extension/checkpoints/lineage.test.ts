import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { entryTimes, sessionLineage } from "./lineage";

describe("checkpoints: session lineage", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "lineage-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function session(name: string, id: string, parent?: string, entries: object[] = []): string {
    const file = path.join(dir, name);
    const header = { type: "session", version: 3, id, timestamp: "2025-01-01T00:00:00.000Z", cwd: dir, ...(parent ? { parentSession: parent } : {}) };
    fs.writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n");
    return file;
  }

  it("lists the session and the sessions it was forked from, nearest first", () => {
    const root = session("root.jsonl", "id-root");
    const middle = session("middle.jsonl", "id-middle", root);
    const leaf = session("leaf.jsonl", "id-leaf", middle);
    assert.deepEqual(sessionLineage(leaf, "id-leaf"), ["id-leaf", "id-middle", "id-root"]);
  });

  it("stops at a missing parent or a cycle, and works without a file", () => {
    const orphan = session("orphan.jsonl", "id-orphan", path.join(dir, "gone.jsonl"));
    assert.deepEqual(sessionLineage(orphan, "id-orphan"), ["id-orphan"]);
    const a = path.join(dir, "a.jsonl");
    session("b.jsonl", "id-b", a);
    session("a.jsonl", "id-a", path.join(dir, "b.jsonl"));
    assert.deepEqual(sessionLineage(a, "id-a"), ["id-a", "id-b"]);
    assert.deepEqual(sessionLineage(undefined, "id-x"), ["id-x"]);
  });

  it("finds when an entry was appended", () => {
    const file = session("s.jsonl", "id-s", undefined, [
      { type: "message", id: "e1", parentId: null, timestamp: "2025-01-02T03:04:05.000Z", message: { role: "user", content: "hi" } },
    ]);
    assert.deepEqual([...entryTimes(file)], [["e1", Date.parse("2025-01-02T03:04:05.000Z")]]);
    assert.equal(entryTimes(undefined).size, 0);
    assert.equal(entryTimes(path.join(dir, "missing.jsonl")).size, 0);
  });
});

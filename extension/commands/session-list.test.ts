import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { listSessions } from "./session-list";

describe("listSessions", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "sessions-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, lines: object[], mtime: number) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    fs.utimesSync(file, mtime, mtime);
  };

  it("summarizes each session file with its name and first user message, newest first", () => {
    const header = (ts: string) => ({ type: "session", version: 3, id: ts, timestamp: ts, cwd: "/w" });
    write("a.jsonl", [header("2025-01-01T00:00:00.000Z"), { type: "message", id: "1", parentId: null, timestamp: "", message: { role: "user", content: [{ type: "text", text: "Hello there" }] } }], 1000);
    write("b.jsonl", [header("2025-01-02T00:00:00.000Z"), { type: "message", id: "1", parentId: null, timestamp: "", message: { role: "user", content: "Plain" } }, { type: "session_info", id: "2", parentId: "1", timestamp: "", name: "Named" }], 2000);
    fs.writeFileSync(path.join(dir, "junk.jsonl"), "not json\n");
    fs.writeFileSync(path.join(dir, "notes.txt"), "x");
    const sessions = listSessions(dir);
    assert.deepEqual(sessions.map((s) => [path.basename(s.file), s.name, s.firstMessage, s.messageCount]), [
      ["b.jsonl", "Named", "Plain", 1],
      ["a.jsonl", undefined, "Hello there", 1],
    ]);
    assert.equal(sessions[1].started.toISOString(), "2025-01-01T00:00:00.000Z");
  });

  it("returns nothing for a missing folder", () => {
    assert.deepEqual(listSessions(path.join(dir, "missing")), []);
  });
});

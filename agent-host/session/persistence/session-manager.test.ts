import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "../../../shared/protocol";
import { SessionManager } from "./session-manager";
import { defaultSessionDir, loadSessionFile } from "./session-file";

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const assistant = (text: string): AgentMessage => ({
  role: "assistant", content: [{ type: "text", text }], api: "faux", provider: "faux", model: "m", usage, stopReason: "stop", timestamp: 2,
});

describe("SessionManager", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "sessions-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("names the session folder as pi does", () => {
    assert.equal(defaultSessionDir("/home/u/.pi/agent", "/work/my:proj"), "/home/u/.pi/agent/sessions/--work-my-proj--");
  });

  it("writes nothing until the first message (the prompt, before any reply), then one line per entry, and loads it back", () => {
    const sessions = new SessionManager({ cwd: "/w", sessionDir: dir });
    sessions.append({ type: "model_change", provider: "faux", modelId: "m" });
    assert.equal(existsSync(sessions.sessionFile!), false);
    sessions.appendMessage(user("hello"));
    assert.equal(readFileSync(sessions.sessionFile!, "utf8").trim().split("\n").length, 3, "header, model change and the prompt");
    sessions.appendMessage(assistant("hi"));
    const lines = readFileSync(sessions.sessionFile!, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; parentId?: string | null; id?: string });
    assert.deepEqual(lines.map((l) => l.type), ["session", "model_change", "message", "message"]);
    assert.equal(lines[2].parentId, lines[1].id);
    sessions.appendMessage(user("more"));
    assert.equal(readFileSync(sessions.sessionFile!, "utf8").trim().split("\n").length, 5);

    const reopened = new SessionManager({ cwd: "/w", sessionDir: dir });
    reopened.open(sessions.sessionFile!);
    assert.equal(reopened.sessionId, sessions.sessionId);
    const context = reopened.context();
    assert.deepEqual(context.messages.map((m) => m.role), ["user", "assistant", "user"]);
    assert.deepEqual(context.model, { provider: "faux", modelId: "m" });
  });

  it("survives a torn last line (a crash mid-write) and keeps every complete entry", () => {
    const sessions = new SessionManager({ cwd: "/w", sessionDir: dir });
    sessions.appendMessage(user("a"));
    sessions.appendMessage(assistant("b"));
    appendFileSync(sessions.sessionFile!, '{"type":"message","id":"x","par');
    const loaded = loadSessionFile(sessions.sessionFile!);
    assert.equal(loaded.entries.length, 2);
    assert.equal(loaded.skippedLines, 1);
    const resumed = new SessionManager({ cwd: "/w", sessionDir: dir });
    resumed.open(sessions.sessionFile!);
    resumed.appendMessage(user("after the crash"));
    const again = loadSessionFile(sessions.sessionFile!);
    assert.equal(again.entries.length, 3);
    assert.equal(again.skippedLines, 1);
  });

  it("branches in place and builds the tree with labels", () => {
    const sessions = new SessionManager({ cwd: "/w" });
    const a = sessions.appendMessage(user("a"));
    const b = sessions.appendMessage(assistant("b"));
    sessions.appendMessage(user("c"));
    sessions.moveLeaf(b.id);
    sessions.appendMessage(user("c2"));
    sessions.append({ type: "label", targetId: a.id, label: "start" });
    const tree = sessions.tree();
    assert.equal(tree.length, 1);
    assert.equal(tree[0].label, "start");
    assert.equal(tree[0].children[0].children.length, 2);
    assert.deepEqual(sessions.context().messages.map((m) => (m.role === "user" ? m.content : "A")), ["a", "A", "c2"]);
  });

  it("applies the latest compaction and context edits when building the context", () => {
    const sessions = new SessionManager({ cwd: "/w" });
    sessions.appendMessage(user("old"));
    sessions.appendMessage(assistant("old reply"));
    const kept = sessions.appendMessage(user("kept"));
    const reply = sessions.appendMessage(assistant("kept reply"));
    sessions.append({ type: "compaction", summary: "S", firstKeptEntryId: kept.id, tokensBefore: 100 });
    sessions.appendMessage(user("new"));
    sessions.append({ type: "context_edit", targetId: reply.id, replacement: "edited" });
    const context = sessions.context();
    assert.deepEqual(context.messages.map((m) => m.role), ["compactionSummary", "user", "assistant", "user"]);
    const edited = context.messages[2];
    assert.deepEqual(edited.role === "assistant" && edited.content, [{ type: "text", text: "edited" }]);
    sessions.append({ type: "context_edit", targetId: kept.id, replacement: null });
    assert.deepEqual(sessions.context().messages.map((m) => m.role), ["compactionSummary", "assistant", "user"]);
  });

  it("forks into a new file holding the branch before an entry, with the parent recorded", () => {
    const sessions = new SessionManager({ cwd: "/w", sessionDir: dir });
    sessions.appendMessage(user("first"));
    sessions.appendMessage(assistant("r1"));
    const second = sessions.appendMessage(user("second"));
    sessions.appendMessage(assistant("r2"));
    const parent = sessions.sessionFile!;
    sessions.forkTo(second.id);
    assert.notEqual(sessions.sessionFile, parent);
    assert.equal(sessions.header.parentSession, parent);
    assert.deepEqual(sessions.context().messages.map((m) => m.role), ["user", "assistant"]);
    assert.equal(loadSessionFile(sessions.sessionFile!).entries.length, 2);
  });

  it("migrates a version 1 file (no ids) and the hookMessage role", () => {
    const file = join(dir, "old.jsonl");
    writeFileSync(file, [
      JSON.stringify({ type: "session", id: "s1", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/w" }),
      JSON.stringify({ type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: user("hi") }),
      JSON.stringify({ type: "message", timestamp: "2024-01-01T00:00:02.000Z", message: { role: "hookMessage", customType: "x", content: "c", display: true, timestamp: 3 } }),
    ].join("\n") + "\n");
    const sessions = new SessionManager({ cwd: "/w" });
    sessions.open(file);
    assert.deepEqual(sessions.context().messages.map((m) => m.role), ["user", "custom"]);
    const rewritten = readFileSync(file, "utf8").split("\n")[0];
    assert.equal((JSON.parse(rewritten) as { version: number }).version, 3);
  });

  it("lists entries since an id and refuses an unknown one", () => {
    const sessions = new SessionManager({ cwd: "/w" });
    const a = sessions.appendMessage(user("a"));
    sessions.appendMessage(assistant("b"));
    assert.equal(sessions.entriesSince(a.id).length, 1);
    assert.throws(() => sessions.entriesSince("nope"), /Entry not found: nope/);
  });
});

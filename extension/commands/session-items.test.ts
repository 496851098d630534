import { strict as assert } from "node:assert";
import { forkRows, sessionRow } from "./session-items";
import type { SessionSummary } from "./session-list";

const summary = (over: Partial<SessionSummary>): SessionSummary => ({
  file: "/s/2026-01-01_abc.jsonl", id: "abc", cwd: "/w", started: new Date(0), modified: new Date(0), messageCount: 2, ...over,
});

describe("Resume Session and Fork from Message with a Pi agent: rows (foreign text from the session file)", () => {
  it("a hostile session name: one line, every character visible, no icon of its own, not 100 KB", () => {
    const row = sessionRow(summary({ name: `$(pass-filled) Approved\nsecond\u202etxt.exe ${"x".repeat(100_000)}` }), undefined);
    assert.equal(row.label.includes("\n"), false);
    assert.match(row.label, /^\\\$\(pass-filled\) Approved/, "the icon syntax kept as text");
    assert.doesNotMatch(row.label, /\u202e/, "no bidi override");
    assert.ok(row.label.length <= 200, `a label of ${row.label.length} characters`);
  });

  it("a hostile first message and file name", () => {
    const row = sessionRow(summary({ firstMessage: "hi $(check)\u200b", file: "/s/$(shield)\u202e.jsonl" }), "/s/$(shield)\u202e.jsonl");
    assert.match(row.label, /\\\$\(check\)/);
    assert.doesNotMatch(row.label, /\u200b/);
    assert.match(row.detail, /\\\$\(shield\)/);
    assert.doesNotMatch(row.detail, /\u202e/);
    assert.match(row.description, /\(current\)$/);
    assert.equal(row.session.file, "/s/$(shield)\u202e.jsonl", "the file itself is opened as it is");
  });

  it("fork rows: a hostile message on one line, escaped, newest first", () => {
    const rows = forkRows([{ entryId: "e1", text: "first" }, { entryId: "e2", text: "$(warning) do it\u202e\u0007" }]);
    assert.equal(rows[0]!.entryId, "e2");
    assert.match(rows[0]!.label, /^\\\$\(warning\) do it/);
    assert.doesNotMatch(rows[0]!.label, /[\u202e\u0007]/);
  });
});

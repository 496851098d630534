/** What the host writes is what shared/session-format declares: every entry kind, checked against its schema. */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { SessionEntry, SessionHeader } from "../../../shared/session-format/schema";
import { SessionManager } from "./session-manager";

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

describe("session file schema", () => {
  it("the header and every entry kind the host writes match the declared schema", () => {
    const dir = mkdtempSync(join(tmpdir(), "session-schema-"));
    try {
      const sessions = new SessionManager({ cwd: "/w", sessionDir: dir });
      const prompt = sessions.appendMessage({ role: "user", content: "hello", timestamp: 1 });
      sessions.appendMessage({ role: "assistant", content: [{ type: "text", text: "hi" }], api: "faux", provider: "faux", model: "m", usage, stopReason: "stop", timestamp: 2 });
      sessions.append({ type: "model_change", provider: "faux", modelId: "m" });
      sessions.append({ type: "thinking_level_change", thinkingLevel: "high" });
      sessions.append({ type: "compaction", summary: "s", firstKeptEntryId: prompt.id, tokensBefore: 10 });
      sessions.append({ type: "branch_summary", fromId: prompt.id, summary: "b" });
      sessions.append({ type: "custom", customType: "x", data: { a: 1 } });
      sessions.append({ type: "custom_message", customType: "plan", content: "text", display: true });
      sessions.append({ type: "label", targetId: prompt.id, label: "L" });
      sessions.append({ type: "session_info", name: "N" });
      sessions.append({ type: "usage", kind: "k", provider: "faux", model: "m", usage });
      sessions.append({ type: "context_edit", targetId: prompt.id, replacement: null });
      const [header, ...entries] = readFileSync(sessions.sessionFile!, "utf8").trim().split("\n").map((line) => JSON.parse(line) as unknown);
      assert.ok(Value.Check(SessionHeader(), header), JSON.stringify([...Value.Errors(SessionHeader(), header)]));
      assert.equal(entries.length, 12);
      for (const entry of entries) assert.ok(Value.Check(SessionEntry(), entry), JSON.stringify([...Value.Errors(SessionEntry(), entry)].slice(0, 3)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

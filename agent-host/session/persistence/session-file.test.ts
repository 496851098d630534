import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSessionFile } from "./session-file";

describe("loadSessionFile", () => {
  it("reads lines across its read chunks: one longer than a chunk, multi-byte text at the edges, CRLF, a cut last line", () => {
    const dir = mkdtempSync(join(tmpdir(), "session-file-"));
    try {
      const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
      const entry = (i: number, text: string) => ({ type: "message", id: `e${i}`, parentId: i ? `e${i - 1}` : null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: text, timestamp: i } });
      const texts = ["é".repeat(400_000), "x".repeat(3_000_000), "日本語".repeat(200_000), "short"];
      const lines = [JSON.stringify(header), ...texts.map((t, i) => JSON.stringify(entry(i, t)))];
      const file = join(dir, "s.jsonl");
      writeFileSync(file, `${lines.slice(0, 3).join("\n")}\r\n${lines.slice(3).join("\n")}\n\n{"type":"message","id":"cut`);
      const loaded = loadSessionFile(file);
      assert.equal(loaded.header.id, "s1");
      assert.deepEqual(loaded.entries.map((e) => (e as unknown as { message: { content: string } }).message.content), texts);
      assert.equal(loaded.skippedLines, 1, "the cut last line is skipped, not fatal");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

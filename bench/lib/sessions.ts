/**
 * Generates valid pi session files (format v3: a header line, then message entries chained by
 * id/parentId) for the session benchmarks: a conversation of user prompts, assistant tool calls,
 * tool results and assistant answers, with deterministic filler text.
 */
import * as fs from "node:fs";

const WORDS = (
  "the agent reads a file and then edits the function so that tests pass while keeping the " +
  "public interface stable because callers depend on it see also config parser stream buffer " +
  "index value error result session model provider token cache request response handler"
).split(" ");

/** Deterministic pseudo-random text of about `chars` characters. */
function filler(seed: number, chars: number): string {
  let x = seed * 2654435761 + 1;
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const word = WORDS[x % WORDS.length]!;
    out.push(word);
    n += word.length + 1;
    if (x % 17 === 0) (out.push("\n"), n++);
  }
  return out.join(" ").slice(0, chars);
}

const usage = { input: 1200, output: 150, cacheRead: 0, cacheWrite: 0, totalTokens: 1350, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

export interface SessionSpec {
  /** Message entries after the header. */
  entries: number;
  /** Characters of filler per entry (tool results get 3x). */
  textChars: number;
  cwd: string;
  /**
   * Split the entries into this many chains of equal length (default 1, one linear chain): chain
   * k > 0 forks off chain 0 after its entry k * forkStride - 1, as a re-edited prompt does.
   */
  branches?: number;
  forkStride?: number;
  /** Text of the first user message and of the last entry (default filler). */
  firstText?: string;
  lastText?: string;
}

/** Writes the session file; returns its size in bytes. */
export function writeSession(file: string, spec: SessionSpec): number {
  const start = Date.UTC(2026, 0, 1);
  const lines: string[] = [JSON.stringify({ type: "session", version: 3, id: "0b5e55a0-0000-4000-8000-000000000001", timestamp: new Date(start).toISOString(), cwd: spec.cwd })];
  const ids: string[] = [];
  const chainLength = Math.ceil(spec.entries / (spec.branches ?? 1));
  const stride = spec.forkStride ?? 100;
  for (let i = 0; i < spec.entries; i++) {
    const id = (i + 1).toString(16).padStart(8, "0");
    const chain = Math.floor(i / chainLength);
    const pos = i % chainLength;
    const parentId = pos > 0 ? ids[i - 1]! : chain === 0 ? null : ids[chain * stride - 1]!;
    ids.push(id);
    const ms = start + i * 1000;
    const callId = `call_${Math.floor(i / 4)}`;
    let message: Record<string, unknown>;
    switch (pos % 4) {
      case 0:
        message = { role: "user", content: [{ type: "text", text: filler(i, spec.textChars) }], timestamp: ms };
        break;
      case 1:
        message = {
          role: "assistant",
          content: [
            { type: "text", text: filler(i, spec.textChars) },
            { type: "toolCall", id: callId, name: "read", arguments: { path: `src/file${i}.ts` } },
          ],
          api: "openai-completions",
          provider: "mock",
          model: "mock",
          usage,
          stopReason: "toolUse",
          timestamp: ms,
        };
        break;
      case 2:
        message = { role: "toolResult", toolCallId: callId, toolName: "read", content: [{ type: "text", text: filler(i, spec.textChars * 3) }], isError: false, timestamp: ms };
        break;
      default:
        message = { role: "assistant", content: [{ type: "text", text: filler(i, spec.textChars) }], api: "openai-completions", provider: "mock", model: "mock", usage, stopReason: "stop", timestamp: ms };
    }
    const custom = i === 0 ? spec.firstText : i === spec.entries - 1 ? spec.lastText : undefined;
    if (custom !== undefined) (message.content as { text: string }[])[0]!.text = custom;
    lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: new Date(ms).toISOString(), message }));
  }
  const text = lines.join("\n") + "\n";
  fs.writeFileSync(file, text);
  return Buffer.byteLength(text);
}

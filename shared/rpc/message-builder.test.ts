import { strict as assert } from "node:assert";
import type { AgentMessage, AssistantMessage, AssistantMessageEvent } from "../protocol";
import { AssistantMessageBuilder } from "./message-builder";
import { parsePartialJson } from "./partial-json";

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const start: AssistantMessage = { role: "assistant", content: [], api: "openai-completions", provider: "mock", model: "mock", usage, stopReason: "pending", timestamp: 1 };

function build(events: AssistantMessageEvent[]): AssistantMessageBuilder {
  const builder = new AssistantMessageBuilder();
  builder.start(start);
  for (const e of events) builder.update(e);
  return builder;
}

describe("AssistantMessageBuilder", () => {
  it("keys blocks by contentIndex when a text block ends after a tool call started (as Pi streams openai-completions)", () => {
    const b = build([
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: "Sur" },
      { type: "toolcall_start", contentIndex: 1, id: "call_1", toolName: "bash" },
      { type: "toolcall_delta", contentIndex: 1, delta: '{"command":"ec' },
      { type: "text_delta", contentIndex: 0, delta: "e." },
    ]);
    assert.deepEqual(b.state!.message.content, [
      { type: "text", text: "Sure." },
      { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ec" } },
    ]);
    b.update({ type: "text_end", contentIndex: 0, content: "Sure!" });
    b.update({ type: "toolcall_end", contentIndex: 1, toolCall: { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "echo hi" } } });
    assert.deepEqual(b.state!.message.content, [
      { type: "text", text: "Sure!" },
      { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "echo hi" } },
    ]);
  });

  it("builds thinking blocks and lets message_end replace everything", () => {
    const b = build([{ type: "thinking_start", contentIndex: 0 }, { type: "thinking_delta", contentIndex: 0, delta: "hmm" }]);
    assert.deepEqual(b.state!.message.content, [{ type: "thinking", thinking: "hmm" }]);
    const final: AgentMessage = { ...start, content: [{ type: "text", text: "done" }], stopReason: "stop" };
    const ended = b.end(final)!;
    assert.equal(ended.done, true);
    assert.deepEqual(ended.message, final);
    assert.equal(b.state, undefined);
  });

  it("takes an older Pi's cumulative snapshot instead of applying the delta again", () => {
    const builder = new AssistantMessageBuilder();
    builder.start(start);
    const snapshot: AgentMessage = { ...start, content: [{ type: "text", text: "Sure." }] };
    // Pi 0.73.1 serializes the snapshot late: it already holds the whole text at text_start.
    builder.update({ type: "text_delta", contentIndex: 0, delta: "Sur" }, snapshot);
    builder.update({ type: "text_delta", contentIndex: 0, delta: "e." }, snapshot);
    assert.deepEqual(builder.state!.message.content, [{ type: "text", text: "Sure." }]);
  });

  it("shows a streaming write's path as soon as it is read, counts the characters, and costs O(delta) (1 MB in 20-character deltas)", () => {
    const builder = new AssistantMessageBuilder();
    builder.start(start);
    builder.update({ type: "toolcall_start", contentIndex: 0, id: "call_w", toolName: "write" });
    const text = JSON.stringify({ path: "src/big.ts", content: "const x = 1;\n".repeat(80_000) });
    const t0 = performance.now();
    let sawPath = -1;
    for (let i = 0; i < text.length; i += 20) {
      const state = builder.update({ type: "toolcall_delta", contentIndex: 0, delta: text.slice(i, i + 20) });
      const call = state.message.content[0];
      if (sawPath < 0 && call?.type === "toolCall" && (call.arguments as { path?: string }).path === "src/big.ts") sawPath = i + 20;
    }
    const ms = performance.now() - t0;
    assert.ok(sawPath > 0 && sawPath <= 40, `the path showed after ${sawPath} characters`);
    assert.equal(builder.state!.streamingArguments.get(0)!.chars, text.length);
    const call = builder.state!.message.content[0];
    assert.equal(call?.type === "toolCall" && (call.arguments as { content: string }).content.length, 13 * 80_000);
    // Re-parsing all the arguments so far on every delta took 4.5 s at 100 KB.
    assert.ok(ms < 1500, `took ${ms.toFixed(0)} ms`);
    builder.update({ type: "toolcall_end", contentIndex: 0, toolCall: { type: "toolCall", id: "call_w", name: "write", arguments: { path: "src/big.ts" } } });
    assert.equal(builder.state!.streamingArguments.size, 0);
  });

  it("appends a delta without contentIndex (seed 001's example) to the last block", () => {
    const b = build([{ type: "text_start", contentIndex: 0 }, { type: "text_delta", delta: "a" } as unknown as AssistantMessageEvent]);
    assert.deepEqual(b.state!.message.content, [{ type: "text", text: "a" }]);
  });
});

describe("parsePartialJson", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["", {}],
    ['{"a":1}', { a: 1 }],
    ['{"command":"echo hi', { command: "echo hi" }],
    ['{"a":1,"b":', { a: 1 }],
    ['{"a":1,"b', { a: 1 }],
    ['{"list":[1,2', { list: [1, 2] }],
    ['{"nested":{"x":"y\\"', { nested: { x: 'y"' } }],
    ["[1,2]", {}],
  ];
  for (const [input, expected] of cases) {
    it(`parses ${JSON.stringify(input)}`, () => assert.deepEqual(parsePartialJson(input), expected));
  }
});

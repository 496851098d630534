import * as assert from "node:assert/strict";
import type { AgentEvent, AssistantMessage } from "../../shared/protocol";
import type { ToWebview } from "../../shared/webview-protocol";
import type { ChatItemOf } from "../../shared/chat-items";
import { ChatEvents } from "./chat-events";
import { Transcript } from "./transcript";

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  return { role: "assistant", content, api: "a", provider: "p", model: "m", usage, stopReason: "stop", timestamp: 1, ...extra };
}

function setup() {
  const sent: ToWebview[] = [];
  let now = 0;
  const transcript = new Transcript((m) => sent.push(m), () => now);
  const events = new ChatEvents(transcript, { header: () => undefined }, () => now);
  const apply = (...list: AgentEvent[]) => list.forEach((e) => events.apply(e));
  const card = (id: string) => transcript.get(`tool-${id}`, "tool") as ChatItemOf<"tool"> | undefined;
  const cardUpserts = () => sent.filter((m): m is Extract<ToWebview, { type: "upsert" }> => m.type === "upsert" && m.item.kind === "tool");
  return { sent, transcript, apply, card, cardUpserts, tick: (ms: number) => (now += ms) };
}

const delta = (d: string, contentIndex = 0): AgentEvent => ({ type: "message_update", assistantMessageEvent: { type: "toolcall_delta", contentIndex, delta: d } });

describe("chat: a tool call's card while the model streams it", () => {
  it("shows the tool and its file as soon as they stream, with the characters so far, throttled and without the content", () => {
    const { apply, card, cardUpserts, tick } = setup();
    const content = "x".repeat(300_000);
    const text = JSON.stringify({ path: "src/big.ts", content });
    apply(
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, id: "w1", toolName: "write" } },
    );
    assert.deepEqual(card("w1")?.argumentChars, 0);
    assert.equal(card("w1")?.name, "write");
    for (let i = 0; i < text.length; i += 20) {
      apply(delta(text.slice(i, i + 20)));
      tick(1); // 15,000 deltas over 15 s: one card update per 100 ms at most
    }
    const upserts = cardUpserts();
    assert.ok(upserts.length >= 100 && upserts.length <= 160, `${upserts.length} card updates`);
    for (const u of upserts) assert.ok(JSON.stringify(u).length < 400, "no update carries the content");
    assert.deepEqual(card("w1")?.args, { path: "src/big.ts" });
    assert.ok(card("w1")!.argumentChars! > text.length - 200);
    apply({ type: "message_update", assistantMessageEvent: { type: "toolcall_end", contentIndex: 0, toolCall: { type: "toolCall", id: "w1", name: "write", arguments: { path: "src/big.ts", content } } } });
    assert.equal(card("w1")?.argumentChars, text.length);
    apply(
      { type: "message_end", message: assistant([{ type: "toolCall", id: "w1", name: "write", arguments: { path: "src/big.ts", content } }], { stopReason: "toolUse" }) },
      { type: "tool_execution_start", toolCallId: "w1", toolName: "write", args: { path: "src/big.ts", content } },
    );
    assert.equal(card("w1")?.argumentChars, undefined, "the running call replaces the streaming card");
    assert.equal((card("w1")?.args as { content: string }).content.length, content.length);
    apply({ type: "tool_execution_end", toolCallId: "w1", toolName: "write", result: { content: [{ type: "text", text: "ok" }], details: {} }, isError: false });
    apply({ type: "agent_end", messages: [] });
    assert.equal(card("w1")?.status, "done");
  });

  it("shows a bash command once its string is read, and leaves out argument strings over 1,000 characters", () => {
    const { apply, card } = setup();
    apply(
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 1, id: "b1", toolName: "bash" } },
      delta('{"command":"ls -la","timeout":30,"note":"' + "n".repeat(1500), 1),
      { type: "message_update", assistantMessageEvent: { type: "toolcall_end", contentIndex: 1, toolCall: { type: "toolCall", id: "b1", name: "bash", arguments: { command: "ls -la", timeout: 30 } } } },
    );
    assert.deepEqual(card("b1")?.args, { command: "ls -la", timeout: 30 });
  });

  it("takes away the card of a call that never runs (the message failed, or the run ended first)", () => {
    const { apply, card } = setup();
    apply(
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, id: "a1", toolName: "write" } },
      delta('{"path":"a.txt","content":"abc'),
      { type: "message_end", message: assistant([], { stopReason: "aborted" }) },
    );
    assert.equal(card("a1"), undefined);
    apply(
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, id: "a2", toolName: "read" } },
      { type: "message_end", message: assistant([{ type: "toolCall", id: "a2", name: "read", arguments: {} }], { stopReason: "length" }) },
    );
    assert.ok(card("a2"), "kept while its call may still run");
    apply({ type: "agent_end", messages: [] });
    assert.equal(card("a2"), undefined);
  });

  it("looks at a bounded part of hostile arguments: 100,000 keys, a 1 MB key", () => {
    const { apply, card, cardUpserts, tick } = setup();
    apply(
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, id: "h1", toolName: "x" } },
      delta(`{"${"k".repeat(1_000_000)}":"v",` + Array.from({ length: 100_000 }, (_, i) => `"a${i}":${i}`).join(",")),
    );
    tick(200);
    apply(delta(',"z":1'));
    assert.ok(cardUpserts().every((u) => JSON.stringify(u).length < 2000), "no update carries the key or all the keys");
    assert.equal(Object.keys(card("h1")!.args as object).length, 31);
  });

  it("keeps a key named __proto__ from reaching the card's prototype", () => {
    const { apply, card } = setup();
    apply(
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_update", assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, id: "p1", toolName: "x" } },
      delta('{"__proto__":{"polluted":"yes"},"path":"p"'),
    );
    const args = card("p1")!.args as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(args), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

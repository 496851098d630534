import * as assert from "node:assert/strict";
import type { AgentMessage, AssistantMessage } from "../../shared/protocol";
import type { ToWebview } from "../../shared/webview-protocol";
import { ChatEvents } from "./chat-events";
import { EventHold, replaySession } from "./session-replay";
import { Transcript } from "./transcript";

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  return { role: "assistant", content, api: "a", provider: "p", model: "m", usage, stopReason: "stop", timestamp: 1, ...extra };
}

/** `turns` turns of four messages: a question, a bash call, its result, an answer. */
function session(turns: number, tag = "q"): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: [{ type: "text", text: `${tag} ${i}` }], timestamp: i });
    messages.push(assistant([{ type: "toolCall", id: `${tag}${i}`, name: "bash", arguments: { command: `ls ${i}` } }], { stopReason: "toolUse" }));
    messages.push({ role: "toolResult", toolCallId: `${tag}${i}`, toolName: "bash", content: [{ type: "text", text: `out ${i}` }], isError: false, timestamp: i });
    messages.push(assistant([{ type: "text", text: `answer ${i}` }]));
  }
  return messages;
}

function chat() {
  const sent: ToWebview[] = [];
  const transcript = new Transcript((m) => sent.push(m), () => 1000);
  const events = new ChatEvents(transcript, { header: () => undefined }, () => 5000);
  return { sent, transcript, events };
}

const strip = (items: unknown) => JSON.parse(JSON.stringify(items, (key, value: unknown) => (key === "key" ? undefined : value))) as unknown;

describe("a session replayed in slices", () => {
  it("shows what a replay in one go shows, sent as one reset, with turns for other work between slices", async () => {
    const messages = session(1250); // 5,000 messages: five slices
    const whole = chat();
    whole.transcript.replaceAll(() => whole.events.replay(messages));
    const sliced = chat();
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const shown = await replaySession(sliced.transcript, sliced.events, messages, () => undefined);
    clearInterval(counting);
    assert.equal(shown, true);
    assert.deepEqual(sliced.sent.map((m) => m.type), ["reset"]);
    assert.deepEqual(strip(sliced.transcript.snapshot()), strip(whole.transcript.snapshot()));
    assert.equal(sliced.transcript.length, 3750, "a question, a bash card and an answer per turn");
    assert.ok(turns >= 1, `a timer ran while it replayed (${turns})`);
  });

  it("stops when a later rebuild comes: it sends nothing, and the later session is what stays", async () => {
    const { sent, transcript, events } = chat();
    const first = replaySession(transcript, events, session(1000, "old"), () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    transcript.replaceAll(() => events.replay(session(2, "new")));
    assert.equal(await first, false);
    assert.deepEqual(sent.map((m) => m.type), ["reset"], "only the later rebuild's reset");
    const texts = transcript.snapshot().flatMap((i) => (i.kind === "user" ? [i.text] : []));
    assert.deepEqual(texts, ["new 0", "new 1"]);
  });

  it("stops when the chat is cleared (/new): the clear's empty reset goes out, nothing after it", async () => {
    const { sent, transcript, events } = chat();
    const first = replaySession(transcript, events, session(1000), () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    transcript.clear();
    assert.equal(await first, false);
    assert.deepEqual(sent.map((m) => (m.type === "reset" ? m.items.length : m.type)), [0]);
    transcript.add({ kind: "notice", text: "after" });
    assert.deepEqual(sent.map((m) => m.type), ["reset", "upsert"], "the transcript is not left muted");
  });
});

describe("agent events during a replay", () => {
  it("wait for it and then go in their order; nested replays flush once, at the end", async () => {
    const hold = new EventHold();
    const applied: string[] = [];
    let release!: () => void;
    const outer = hold.during(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    hold.deliver(() => applied.push("a"));
    const inner = hold.during(async () => hold.deliver(() => applied.push("b")));
    await inner;
    assert.equal(applied.length, 0, "still held while the outer replay runs");
    release();
    await outer;
    assert.deepEqual(applied, ["a", "b"]);
    hold.deliver(() => applied.push("c"));
    assert.deepEqual(applied, ["a", "b", "c"], "applied at once when nothing is replayed");
  });
});

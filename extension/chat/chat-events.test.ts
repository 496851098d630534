import * as assert from "node:assert/strict";
import type { AgentEvent, AssistantMessage } from "../../shared/protocol";
import type { SessionHeader, ToWebview } from "../../shared/webview-protocol";
import { planRefusal, userDenial } from "../../shared/protocol";
import { ChatEvents, noticeTitle } from "./chat-events";
import { beforeAndAfter, fileChangeOf } from "./edit-diff";
import { Transcript } from "./transcript";

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  return { role: "assistant", content, api: "a", provider: "p", model: "m", usage, stopReason: "stop", timestamp: 1, ...extra };
}

function setup() {
  const sent: ToWebview[] = [];
  const headers: Partial<SessionHeader>[] = [];
  const transcript = new Transcript((m) => sent.push(m), () => 1000);
  const events = new ChatEvents(transcript, { header: (h) => headers.push(h) }, () => 5000);
  const apply = (...list: AgentEvent[]) => list.forEach((e) => events.apply(e));
  return { sent, headers, transcript, events, apply };
}

describe("chat events → transcript", () => {
  it("streams assistant text and thinking block by block, then takes message_end as final", () => {
    const { sent, transcript, apply } = setup();
    apply(
      { type: "message_start", message: { role: "user", content: "Hi", timestamp: 1 } },
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_update", assistantMessageEvent: { type: "thinking_start", contentIndex: 0 } },
      { type: "message_update", assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "hmm" } },
      { type: "message_update", assistantMessageEvent: { type: "text_start", contentIndex: 1 } },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "# He" } },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "llo" } },
    );
    const appends = sent.filter((m) => m.type === "append");
    assert.deepEqual(appends.map((m) => m.type === "append" && [m.block, m.blockType, m.text]), [[0, "thinking", "hmm"], [1, "text", "# He"], [1, "text", "llo"]]);
    apply({ type: "message_end", message: assistant([{ type: "thinking", thinking: "hmm" }, { type: "text", text: "# Hello" }]) });
    const items = transcript.snapshot();
    assert.deepEqual(items.map((i) => i.kind), ["user", "assistant"]);
    const reply = items[1];
    assert.ok(reply.kind === "assistant");
    assert.deepEqual(reply.blocks, [{ type: "thinking", text: "hmm" }, { type: "text", text: "# Hello" }]);
    assert.equal(reply.streaming, false);
  });

  it("keeps the provider's error and drops a message that only called tools", () => {
    const { transcript, apply } = setup();
    apply(
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_end", message: assistant([{ type: "toolCall", id: "c1", name: "bash", arguments: {} }], { stopReason: "toolUse" }) },
      { type: "message_start", message: assistant([], { stopReason: "pending" }) },
      { type: "message_end", message: assistant([], { stopReason: "error", errorMessage: "429 rate limited" }) },
    );
    const items = transcript.snapshot();
    assert.equal(items.length, 1);
    assert.ok(items[0].kind === "assistant");
    assert.equal(items[0].error, "429 rate limited");
  });

  it("follows a peer that sends cumulative snapshots instead of deltas", () => {
    const { transcript, apply } = setup();
    apply({ type: "message_start", message: assistant([], { stopReason: "pending" }) });
    apply({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Hel" }, message: assistant([{ type: "text", text: "Hel" }]) });
    apply({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "lo" }, message: assistant([{ type: "text", text: "Hello" }]) });
    const item = transcript.snapshot()[0];
    assert.ok(item.kind === "assistant");
    assert.deepEqual(item.blocks, [{ type: "text", text: "Hello" }]);
  });

  it("makes a tool card with live output, result and duration", async () => {
    const { sent, transcript, apply } = setup();
    apply({ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "echo hi" } });
    apply({ type: "tool_execution_update", toolCallId: "t1", toolName: "bash", args: {}, partialResult: { content: [{ type: "text", text: "h" }] } });
    apply({ type: "tool_execution_update", toolCallId: "t1", toolName: "bash", args: {}, partialResult: { content: [{ type: "text", text: "hi" }] } });
    await new Promise((r) => setTimeout(r, 80));
    const outputs = sent.filter((m) => m.type === "output");
    assert.deepEqual(outputs.map((m) => m.type === "output" && m.text), ["hi"], "updates are throttled to the latest");
    apply({ type: "tool_execution_end", toolCallId: "t1", toolName: "bash", result: { content: [{ type: "text", text: "hi\n" }] }, isError: false, durationMs: 12 });
    const card = transcript.get("tool-t1", "tool");
    assert.deepEqual([card?.status, card?.output, card?.durationMs, (card?.args as { command: string }).command], ["done", "hi\n", 12, "echo hi"]);
  });

  it("puts a nested call (parentToolCallId) under its parent's card, in order, before the next call", () => {
    const { transcript, apply } = setup();
    const start = (id: string, parent?: string) => apply({ type: "tool_execution_start", toolCallId: id, toolName: parent ? "mcp__srv__echo" : "codemode", args: {}, ...(parent ? { parentToolCallId: parent } : {}) });
    const end = (id: string, parent?: string) => apply({ type: "tool_execution_end", toolCallId: id, toolName: "x", result: { content: [{ type: "text", text: "ok" }] }, isError: false, ...(parent ? { parentToolCallId: parent } : {}) });
    start("script");
    start("other");
    start("n1", "script");
    end("n1", "script");
    start("n2", "script");
    end("n2", "script");
    end("script");
    end("other");
    const items = transcript.snapshot();
    assert.deepEqual(items.map((i) => i.key), ["tool-script", "tool-n1", "tool-n2", "tool-other"]);
    assert.deepEqual(items.map((i) => i.kind === "tool" && i.parent), [false, "tool-script", "tool-script", false].map((p) => p || undefined));
  });

  it("shows retries and compaction as banners, and passes header changes on", () => {
    const { transcript, headers, apply } = setup();
    apply({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "overloaded" });
    let banner = transcript.snapshot()[0];
    assert.ok(banner.kind === "banner" && banner.active && /Retrying in 2 s \(attempt 1 of 3\): overloaded/.test(banner.text));
    apply({ type: "auto_retry_end", success: false, attempt: 3, finalError: "still overloaded" });
    banner = transcript.snapshot()[0];
    assert.ok(banner.kind === "banner" && !banner.active && banner.tone === "error" && /still overloaded/.test(banner.text));
    apply({ type: "compaction_start", reason: "threshold" });
    apply({ type: "compaction_end", reason: "threshold", aborted: false, willRetry: false, result: { summary: "## Goal\nstuff", firstKeptEntryId: "e1", tokensBefore: 120_000 } });
    const last = transcript.snapshot().at(-1);
    assert.ok(last?.kind === "compaction" && last.tokensBefore === 120_000);
    assert.equal(transcript.snapshot().filter((i) => i.kind === "banner").length, 1);
    // The agent's own "Compaction failed: …" is not prefixed again; a session too short is said calmly.
    apply({ type: "compaction_start", reason: "manual" }, { type: "compaction_end", reason: "manual", aborted: false, willRetry: false, errorMessage: "Compaction failed: the model refused" });
    const failed = transcript.snapshot().at(-1);
    assert.ok(failed?.kind === "banner" && failed.tone === "error" && failed.text === "Compaction failed: the model refused", JSON.stringify(failed));
    apply({ type: "compaction_start", reason: "manual" }, { type: "compaction_end", reason: "manual", aborted: false, willRetry: false, errorMessage: "Compaction failed: Nothing to compact (session too small)" });
    const calm = transcript.snapshot().at(-1);
    assert.ok(calm?.kind === "banner" && calm.tone === "info" && /Nothing to compact yet/.test(calm.text), JSON.stringify(calm));
    apply({ type: "queue_update", steering: ["a"], followUp: ["b"] }, { type: "thinking_level_changed", level: "high" });
    assert.deepEqual(headers, [{ thinkingLevel: "high" }]);
  });

  it("runs a user shell command with streamed output", () => {
    const { transcript, events, apply } = setup();
    const key = events.bashStarted("ls", false);
    apply({ type: "bash_execution_update", delta: "a\n" }, { type: "bash_execution_update", delta: "b\n" });
    assert.equal(transcript.get(key, "bash")?.output, "a\nb\n");
    events.bashFinished(key, { output: "a\nb\n", exitCode: 0, cancelled: false, truncated: false });
    assert.deepEqual([transcript.get(key, "bash")?.running, transcript.get(key, "bash")?.exitCode], [false, 0]);
  });
});

describe("a session's messages → transcript", () => {
  it("replays messages with tool calls and results, sent as one reset", () => {
    const { sent, transcript, events } = setup();
    transcript.replaceAll(() =>
      events.replay([
        { role: "user", content: [{ type: "text", text: "list files" }], timestamp: 1 },
        assistant([{ type: "text", text: "Listing." }, { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }], { stopReason: "toolUse" }),
        { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "a.ts" }], isError: false, timestamp: 2 },
        assistant([{ type: "text", text: "One file." }]),
      ]),
    );
    assert.deepEqual(sent.map((m) => m.type), ["reset"]);
    const items = transcript.snapshot();
    assert.deepEqual(items.map((i) => i.kind), ["user", "assistant", "tool", "assistant"]);
    const tool = items[2];
    assert.ok(tool.kind === "tool" && tool.status === "done" && tool.output === "a.ts" && tool.durationMs === undefined);
    assert.deepEqual(tool.args, { command: "ls" });
  });
});

describe("edit and write diffs (extension)", () => {
  it("rebuilds the whole file before an edit from the file after it", () => {
    const change = fileChangeOf("edit", { path: "a.ts", edits: [{ oldText: "one", newText: "ONE" }, { oldText: "three", newText: "3" }] });
    assert.deepEqual(beforeAndAfter(change!, "ONE\ntwo\n3\n"), { before: "one\ntwo\nthree\n", after: "ONE\ntwo\n3\n" });
    assert.deepEqual(beforeAndAfter(change!, undefined), { before: "one\n⋯\nthree", after: "ONE\n⋯\n3" });
  });
  it("shows a call asked about (not run yet) as the whole file now against the file it would leave", () => {
    const change = fileChangeOf("edit", { path: "a.ts", edits: [{ oldText: "one", newText: "ONE" }, { oldText: "three", newText: "3" }] });
    assert.deepEqual(beforeAndAfter(change!, "one\ntwo\nthree\n", true), { before: "one\ntwo\nthree\n", after: "ONE\ntwo\n3\n" });
    // A pattern the file no longer holds: only the snippets, never a made-up file.
    assert.deepEqual(beforeAndAfter(change!, "changed meanwhile\n", true), { before: "one\n⋯\nthree", after: "ONE\n⋯\n3" });
  });
  it("shows a write against the file as it was, and ignores other tools", () => {
    const change = fileChangeOf("write", { path: "b.txt", content: "new" });
    assert.deepEqual(beforeAndAfter(change!, "old"), { before: "old", after: "new" });
    assert.deepEqual(beforeAndAfter(change!, "new"), { before: "", after: "new" });
    assert.equal(fileChangeOf("bash", { command: "x" }), undefined);
  });
});

describe("chat events: plan mode's refusals and our notes", () => {
  const end = (isError: boolean, text: string): AgentEvent => ({ type: "tool_execution_end", toolCallId: "c1", toolName: "write", result: { content: [{ type: "text", text }] }, isError });
  const statusOf = (event: AgentEvent) => {
    const { transcript, apply } = setup();
    apply({ type: "tool_execution_start", toolCallId: "c1", toolName: "write", args: { path: "a" } }, event);
    const item = transcript.get("tool-c1", "tool");
    return [item?.status, item?.notRun];
  };

  it("shows the host's plan refusal and the user's denial as not run, anything else as it was", () => {
    assert.deepEqual(statusOf(end(true, planRefusal("write"))), ["notRun", "plan mode"]);
    assert.deepEqual(statusOf(end(true, userDenial("write"))), ["notRun", "denied by you"]);
    assert.deepEqual(statusOf(end(true, "ENOENT: no such file")), ["error", undefined]);
    // A tool's own output that quotes the sentence is not a refusal (only an error result is, and only the whole text).
    assert.deepEqual(statusOf(end(false, planRefusal("write"))), ["done", undefined]);
    assert.deepEqual(statusOf(end(true, ` ${planRefusal("write")}`)), ["error", undefined]);
    assert.deepEqual(statusOf(end(true, `${userDenial("write")}\n\nCommand exited with code 1`)), ["error", undefined]);
    assert.deepEqual(statusOf(end(true, userDenial("bash"))), ["error", undefined], "another tool's denial");
  });

  it("says our host's mode change in the user's words; a note without valid details as written", () => {
    const { transcript, apply } = setup();
    const note = (details: unknown) => apply({ type: "message_start", message: { role: "custom", customType: "permission_mode", content: "The user switched to plan mode: …", display: true, details, timestamp: 1 } });
    note({ from: "ask", to: "plan" });
    note({ from: "plan", to: "acceptEdits" });
    note({ from: "plan", to: "__proto__" });
    const texts = transcript.snapshot().map((i) => (i.kind === "notice" ? i.text : ""));
    assert.deepEqual(texts, [
      "Plan mode: only read-only tools run until you approve the plan.",
      "Left plan mode for Auto-accept edits (file edits run without asking and can be reviewed after; commands still ask).",
      "The user switched to plan mode: …",
    ]);
  });

  it("titles notes in words", () => {
    assert.equal(noticeTitle("permission_mode"), "Mode changed");
    assert.equal(noticeTitle("plan"), "Plan edited by you");
    assert.equal(noticeTitle("my-extension_noteType"), "My extension note type");
    assert.equal(noticeTitle("__proto__"), "Proto");
    assert.equal(noticeTitle("constructor"), "Constructor");
    assert.equal(noticeTitle("___"), "Note");
  });
});

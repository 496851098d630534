import { strict as assert } from "node:assert";
import type { AgentMessage } from "../../../shared/protocol";
import { CompactionCancelledError, serializeConversation, summarizeHistory, summarizeTurnPrefix, SUMMARIZER_SYSTEM_PROMPT } from "./summarize";
import { assistant, call, fauxModel, result, user } from "../../../test/fixtures/host/compaction";

const conversation: AgentMessage[] = [
  user("Fix the crash in src/parser.ts"),
  { ...assistant("Reading it first."), content: [{ type: "thinking", thinking: "need the file" }, { type: "text", text: "Reading it first." }, call("c1", "read", { path: "src/parser.ts" })] },
  result("c1", "read", "y".repeat(5000)),
  { role: "bashExecution", command: "npm test", output: "1 failing", exitCode: 1, cancelled: false, truncated: false, timestamp: 5 },
];

describe("compaction summary request", () => {
  it("sends the conversation as one transcript with the summarizer's system prompt and no tools", async () => {
    let seen: { messages: number; tools: number } | undefined;
    const { model, requests } = fauxModel((context) => ((seen = { messages: context.messages.length, tools: context.tools?.length ?? 0 }), { text: "## Goal\nfix", usage: { input: 50, output: 20 } }));
    const summary = await summarizeHistory(conversation, model, 1000);
    assert.deepEqual(seen, { messages: 1, tools: 0 });
    assert.equal(requests[0].system, SUMMARIZER_SYSTEM_PROMPT);
    const prompt = requests[0].prompt;
    assert.match(prompt, /^<transcript>\nUSER: Fix the crash in src\/parser\.ts\n\nASSISTANT \(reasoning\): need the file\n\nASSISTANT: Reading it first\.\n\nASSISTANT \(tool calls\): read \{"path":"src\/parser\.ts"\}/);
    assert.ok(prompt.includes(`TOOL RESULT (read): ${"y".repeat(2000)}\n[… 3000 more characters not shown]`), "long tool results are clipped");
    assert.ok(!prompt.includes("y".repeat(2001)));
    assert.ok(prompt.includes("USER: Ran `npm test`"), "a user's shell command is part of the transcript");
    for (const section of ["## Goal", "## Constraints & Preferences", "### Done", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"]) assert.ok(prompt.includes(section), section);
    assert.ok(!prompt.includes("<earlier-summary>"));
    assert.equal(summary.text, "## Goal\nfix");
    assert.equal(summary.usage.input, 50);
    assert.equal(summary.usage.output, 20);
  });

  it("asks for an update of the previous summary and passes the custom instructions", async () => {
    const { model, requests } = fauxModel([{ text: "updated" }]);
    await summarizeHistory(conversation, model, 1000, { previousSummary: "## Goal\nEarlier goal", customInstructions: "  focus on the failing test  " });
    const prompt = requests[0].prompt;
    assert.ok(prompt.includes("</transcript>\n\n<earlier-summary>\n## Goal\nEarlier goal\n</earlier-summary>"));
    assert.ok(prompt.includes("updating that summary"));
    assert.ok(prompt.endsWith("The user asked this summary to focus on: focus on the failing test"));
  });

  it("asks for a turn-prefix checkpoint of a split turn", async () => {
    const { model, requests } = fauxModel([{ text: "prefix" }]);
    const prefix = await summarizeTurnPrefix(conversation.slice(0, 3), model, 1000);
    assert.equal(prefix.text, "prefix");
    for (const section of ["## Original Request", "## Progress So Far", "## Context Needed to Continue"]) assert.ok(requests[0].prompt.includes(section), section);
  });

  it("fails with the provider's error, and refuses empty or tool-calling answers", async () => {
    await assert.rejects(summarizeHistory(conversation, fauxModel([{ error: "400 invalid model" }]).model, 1000), { message: "Summarization failed: 400 invalid model" });
    await assert.rejects(summarizeHistory(conversation, fauxModel([{ text: "  " }]).model, 1000), /Summarization failed: the model returned no text/);
    await assert.rejects(summarizeTurnPrefix(conversation, fauxModel([{ toolCalls: [{ name: "read", arguments: {} }] }]).model, 1000), /Turn prefix summarization attempted to call a tool/);
  });

  it("retries a transient failure under the retry policy and reports the retry", async () => {
    const { model, requests } = fauxModel([{ error: "503 Service temporarily unavailable" }, { text: "done" }]);
    const log: string[] = [];
    const summary = await summarizeHistory(conversation, model, 1000, {
      retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 },
      retryCallbacks: {
        onRetryScheduled: (attempt, max, delay, error) => log.push(`scheduled ${attempt}/${max} ${delay}ms ${error}`),
        onRetryAttemptStart: () => log.push("attempt"),
        onRetryFinished: (success, attempt) => log.push(`finished ${success} ${attempt}`),
      },
    });
    assert.equal(summary.text, "done");
    assert.equal(requests.length, 2);
    assert.deepEqual(log, ["scheduled 1/2 1ms 503 Service temporarily unavailable", "attempt", "finished true 1"]);
  });

  it("does not retry an overflow or a permanent error", async () => {
    const { model, requests } = fauxModel([{ error: "prompt is too long: 300000 tokens > 200000 maximum" }, { text: "never" }]);
    await assert.rejects(summarizeHistory(conversation, model, 1000, { retry: { enabled: true, maxRetries: 3, baseDelayMs: 1 } }), /prompt is too long/);
    assert.equal(requests.length, 1);
  });

  it("stops with CompactionCancelledError when aborted mid-request or during a retry wait", async () => {
    const controller = new AbortController();
    const hanging = fauxModel(() => (queueMicrotask(() => controller.abort()), { hang: true }));
    await assert.rejects(summarizeHistory(conversation, hanging.model, 1000, { signal: controller.signal }), CompactionCancelledError);

    const backoff = new AbortController();
    const failing = fauxModel([{ error: "529 overloaded" }, { text: "never" }]);
    const started = Date.now();
    await assert.rejects(
      summarizeHistory(conversation, failing.model, 1000, {
        signal: backoff.signal,
        retry: { enabled: true, maxRetries: 3, baseDelayMs: 60_000 },
        retryCallbacks: { onRetryScheduled: () => backoff.abort() },
      }),
      CompactionCancelledError,
    );
    assert.ok(Date.now() - started < 5000, "the 60 s wait was cut short");
    assert.equal(failing.requests.length, 1);
  });

  it("serializes only text, thinking, tool calls and tool results", () => {
    assert.equal(
      serializeConversation([
        { role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 0 },
        { role: "toolResult", toolCallId: "x", toolName: "bash", content: [{ type: "text", text: "boom" }], isError: true, timestamp: 0 },
      ]),
      "TOOL RESULT (bash, error): boom",
    );
  });
});

import * as assert from "node:assert/strict";
import * as path from "node:path";
import { build } from "esbuild";
import { APIError } from "@anthropic-ai/sdk";
import { Type } from "@sinclair/typebox";
import { startAnthropicServer, type AnthropicServer } from "../../../test/llm-servers/anthropic-server";
import { thinkingParams } from "../anthropic/request";
import type { AssistantMessageEventStream } from "../event-stream";
import { stream } from "../stream";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, StreamOptions } from "../types";
import { provider } from "./anthropic-messages";

function claude(server: AnthropicServer, overrides: Partial<Model> = {}): Model {
  return {
    id: "claude-haiku-4-5",
    name: "Claude Haiku 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: server.baseUrl,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 64_000,
    ...overrides,
  };
}

async function collect(events: AssistantMessageEventStream): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
  const seen: AssistantMessageEvent[] = [];
  for await (const event of events) seen.push(event);
  return { events: seen, message: await events.result() };
}

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });
const readTool = {
  name: "read",
  description: "Read a file",
  parameters: Type.Object({ path: Type.String() }, { $schema: "http://json-schema.org/draft-07/schema#" }),
};
type Body = Record<string, unknown> & { messages: { role: string; content: Record<string, unknown>[] }[] };

describe("anthropic-messages provider (real SDK against a local Anthropic wire server)", () => {
  let server: AnthropicServer;
  beforeEach(async () => (server = await startAnthropicServer()));
  afterEach(() => server.close());
  const opts = (extra: StreamOptions = {}): StreamOptions => ({ apiKey: server.apiKey, ...extra });

  it("streams text through stream(), with the API key, the system prompt and cache breakpoints in the request", async () => {
    server.enqueue({ id: "msg_abc", blocks: [{ type: "text", chunks: ["Hel", "lo ", "world"] }] });
    const context: Context = { systemPrompt: "You are terse.", messages: [user("Hi")], tools: [readTool] };
    const { events, message } = await collect(stream(claude(server), context, opts()));

    assert.deepEqual(events.map((e) => e.type), ["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"]);
    assert.deepEqual(events.filter((e) => e.type === "text_delta").map((e) => (e.type === "text_delta" ? e.delta : "")), ["Hel", "lo ", "world"]);
    assert.deepEqual(message.content, [{ type: "text", text: "Hello world" }]);
    assert.equal(message.stopReason, "stop");
    assert.equal(message.rawStopReason, "end_turn");
    assert.equal(message.responseId, "msg_abc");

    const [request] = server.requests;
    assert.equal(request.headers["x-api-key"], server.apiKey);
    assert.equal(request.headers.authorization, undefined);
    assert.ok(request.headers["anthropic-version"]);
    const body = request.body as Body;
    assert.equal(body.model, "claude-haiku-4-5");
    assert.equal(body.stream, true);
    assert.equal(body.max_tokens, 64_000);
    assert.equal(body.thinking, undefined);
    assert.deepEqual(body.system, [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }]);
    assert.deepEqual(body.messages, [{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] }]);
    assert.deepEqual(body.tools, [
      {
        name: "read",
        description: "Read a file",
        input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        cache_control: { type: "ephemeral" },
      },
    ]);
  });

  it("maps a thinking level to a budget above which max_tokens is raised, and streams signed and redacted thinking", async () => {
    server.enqueue({
      blocks: [
        { type: "thinking", chunks: ["Let me ", "think."], signatureChunks: ["sig-part-1", "sig-part-2"] },
        { type: "redacted_thinking", data: "opaque-redacted-data" },
        { type: "text", chunks: ["Answer."] },
      ],
    });
    const { events, message } = await collect(provider.stream(claude(server), { messages: [user("Why?")] }, opts({ reasoning: "medium", maxTokens: 4000 })));

    const body = server.requests[0].body as Body;
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 8192 });
    assert.equal(body.max_tokens, 4000 + 8192);
    assert.match(String(server.requests[0].headers["anthropic-beta"]), /interleaved-thinking-2025-05-14/);
    assert.deepEqual(
      events.map((e) => e.type),
      ["start", "thinking_start", "thinking_delta", "thinking_delta", "thinking_end", "thinking_start", "thinking_end", "text_start", "text_delta", "text_end", "done"],
    );
    assert.deepEqual(message.content, [
      { type: "thinking", thinking: "Let me think.", thinkingSignature: "sig-part-1sig-part-2" },
      { type: "thinking", thinking: "", thinkingSignature: "opaque-redacted-data", redacted: true },
      { type: "text", text: "Answer." },
    ]);
    assert.equal(message.stopReason, "stop");
  });

  it("fits the budget under the model's limit, leaves thinking off when asked, and uses effort for adaptive models", () => {
    const base = claude({ baseUrl: "" } as AnthropicServer);
    assert.deepEqual(thinkingParams({ ...base, maxTokens: 4096 }, "high", undefined), {
      maxTokens: 4096,
      thinking: { type: "enabled", budget_tokens: 3072 },
      beta: "interleaved-thinking-2025-05-14",
    });
    assert.deepEqual(thinkingParams({ ...base, maxTokens: 1500 }, "low", undefined), { maxTokens: 1500 });
    assert.deepEqual(thinkingParams(base, undefined, 2000), { maxTokens: 2000 });
    assert.deepEqual(thinkingParams({ ...base, reasoning: false }, "high", undefined), { maxTokens: 64_000 });
    const adaptive = { ...base, compat: { forceAdaptiveThinking: true }, thinkingLevelMap: { xhigh: "xhigh" } };
    assert.deepEqual(thinkingParams(adaptive, "xhigh", undefined), {
      maxTokens: 64_000,
      thinking: { type: "adaptive", display: "summarized" },
      outputConfig: { effort: "xhigh" },
    });
    assert.deepEqual(thinkingParams(adaptive, "minimal", undefined).outputConfig, { effort: "low" });
    assert.deepEqual(thinkingParams(adaptive, undefined, undefined).thinking, { type: "disabled" });
    assert.equal(thinkingParams({ ...adaptive, thinkingLevelMap: { off: null } }, undefined, undefined).thinking, undefined);
  });

  it("streams several tool calls whose arguments arrive in pieces", async () => {
    server.enqueue({
      blocks: [
        { type: "text", chunks: ["Let me look."] },
        { type: "tool_use", id: "toolu_01", name: "read", jsonChunks: ['{"pa', 'th": "src/a', '.ts"}'] },
        { type: "tool_use", id: "toolu_02", name: "bash", jsonChunks: ['{"command":', ' "ls -la"', ', "timeout": 5}'] },
      ],
    });
    const { events, message } = await collect(provider.stream(claude(server), { messages: [user("Look")], tools: [readTool] }, opts()));

    const starts = events.filter((e) => e.type === "toolcall_start");
    assert.deepEqual(starts.map((e) => (e.type === "toolcall_start" ? [e.contentIndex, e.id, e.toolName] : [])), [
      [1, "toolu_01", "read"],
      [2, "toolu_02", "bash"],
    ]);
    const deltas = events.filter((e) => e.type === "toolcall_delta");
    assert.deepEqual(deltas.map((e) => (e.type === "toolcall_delta" ? e.delta : "")), ['{"pa', 'th": "src/a', '.ts"}', '{"command":', ' "ls -la"', ', "timeout": 5}']);
    const ends = events.filter((e) => e.type === "toolcall_end");
    assert.deepEqual(ends.map((e) => (e.type === "toolcall_end" ? e.toolCall.arguments : {})), [{ path: "src/a.ts" }, { command: "ls -la", timeout: 5 }]);
    assert.deepEqual(message.content.slice(1), [
      { type: "toolCall", id: "toolu_01", name: "read", arguments: { path: "src/a.ts" } },
      { type: "toolCall", id: "toolu_02", name: "bash", arguments: { command: "ls -la", timeout: 5 } },
    ]);
    assert.equal(message.stopReason, "toolUse");
    assert.equal(message.rawStopReason, "tool_use");
  });

  it("reports usage with cache reads and writes, and its cost from the model's prices", async () => {
    server.enqueue({ blocks: [{ type: "text", chunks: ["ok"] }], usage: { input: 1200, output: 350, cacheRead: 8000, cacheWrite: 500 } });
    const { message } = await collect(provider.stream(claude(server), { messages: [user("Hi")] }, opts()));
    const { usage } = message;
    assert.deepEqual([usage.input, usage.output, usage.cacheRead, usage.cacheWrite, usage.totalTokens], [1200, 350, 8000, 500, 10_050]);
    const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);
    close(usage.cost.input, (1200 * 3) / 1e6);
    close(usage.cost.output, (350 * 15) / 1e6);
    close(usage.cost.cacheRead, (8000 * 0.3) / 1e6);
    close(usage.cost.cacheWrite, (500 * 3.75) / 1e6);
    close(usage.cost.total, (1200 * 3 + 350 * 15 + 8000 * 0.3 + 500 * 3.75) / 1e6);
  });

  it("replays a conversation: images, signed and redacted thinking, merged tool results with valid ids", async () => {
    server.enqueue({ blocks: [{ type: "text", chunks: ["Done."] }] });
    const png = "iVBORw0KGgo=";
    const assistant = (content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage => ({
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-haiku-4-5",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "toolUse",
      timestamp: 2,
      ...from,
    });
    const foreignId = "call_1|fc_abc.def";
    const context: Context = {
      messages: [
        { role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image", data: png, mimeType: "image/png" }], timestamp: 1 },
        assistant([
          { type: "thinking", thinking: "I should read it", thinkingSignature: "sig-1" },
          { type: "thinking", thinking: "", thinkingSignature: "redacted-data", redacted: true },
          { type: "text", text: "Reading." },
          { type: "toolCall", id: foreignId, name: "read", arguments: { path: "a.png" } },
          { type: "toolCall", id: "toolu_ok", name: "bash", arguments: { command: "ls" } },
        ]),
        { role: "toolResult", toolCallId: foreignId, toolName: "read", content: [{ type: "text", text: "an image" }, { type: "image", data: png, mimeType: "image/png" }], isError: false, timestamp: 3 },
        { role: "toolResult", toolCallId: "toolu_ok", toolName: "bash", content: [{ type: "text", text: "boom" }], isError: true, timestamp: 4 },
        assistant([{ type: "thinking", thinking: "Other model's thoughts", thinkingSignature: "not-for-claude" }, { type: "text", text: "Sure." }], {
          api: "openai-responses",
          provider: "openai",
          model: "gpt-5",
          stopReason: "stop",
        }),
        user("thanks"),
      ],
    };
    const { message } = await collect(provider.stream(claude(server), context, opts()));
    assert.equal(message.stopReason, "stop");

    const body = server.requests[0].body as Body;
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: png } };
    const [first, second, third, fourth, fifth] = body.messages;
    assert.equal(body.messages.length, 5);
    assert.deepEqual(first, { role: "user", content: [{ type: "text", text: "What is in this picture?" }, image] });
    const validId = second.content[3].id as string;
    assert.match(validId, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.notEqual(validId, foreignId);
    assert.deepEqual(second, {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should read it", signature: "sig-1" },
        { type: "redacted_thinking", data: "redacted-data" },
        { type: "text", text: "Reading." },
        { type: "tool_use", id: validId, name: "read", input: { path: "a.png" } },
        { type: "tool_use", id: "toolu_ok", name: "bash", input: { command: "ls" } },
      ],
    });
    assert.deepEqual(third, {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: validId, content: [{ type: "text", text: "an image" }, image] },
        { type: "tool_result", tool_use_id: "toolu_ok", content: "boom", is_error: true },
      ],
    });
    assert.deepEqual(fourth, { role: "assistant", content: [{ type: "text", text: "Other model's thoughts" }, { type: "text", text: "Sure." }] });
    assert.deepEqual(fifth, { role: "user", content: [{ type: "text", text: "thanks", cache_control: { type: "ephemeral" } }] });
  });

  it("ends with an error, keeping the partial text, when the server sends an error event mid-stream", async () => {
    server.enqueue({ blocks: [{ type: "text", chunks: ["Partial"] }], errorAfterBlocks: { type: "overloaded_error", message: "Overloaded" } });
    const { events, message } = await collect(provider.stream(claude(server), { messages: [user("Hi")] }, opts()));
    const last = events[events.length - 1];
    assert.equal(last.type, "error");
    assert.equal(last.type === "error" && last.reason, "error");
    assert.equal(message.stopReason, "error");
    assert.equal(message.errorMessage, "overloaded_error: Overloaded");
    assert.deepEqual(message.content, [{ type: "text", text: "Partial" }]);
    assert.equal(provider.classifyError?.(message.errorMessage).transient, true);
    assert.equal(provider.classifyError?.(message).transient, true);
  });

  it("turns HTTP errors into the server's message and classifies them", async () => {
    server.enqueue(
      { kind: "http-error", status: 529, type: "overloaded_error", message: "Overloaded" },
      { kind: "http-error", status: 400, type: "invalid_request_error", message: "messages.1.content: text content blocks must be non-empty" },
    );
    const overloaded = await provider.stream(claude(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(overloaded.stopReason, "error");
    assert.equal(overloaded.errorMessage, "529 overloaded_error: Overloaded");
    assert.deepEqual(provider.classifyError?.(overloaded.errorMessage), { transient: true, status: 529, retryAfterMs: undefined });

    const invalid = await provider.stream(claude(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(invalid.errorMessage, "400 invalid_request_error: messages.1.content: text content blocks must be non-empty");
    assert.equal(provider.classifyError?.(invalid.errorMessage).transient, false);

    const unauthorized = await provider.stream(claude(server), { messages: [user("Hi")] }, { apiKey: "wrong" }).result();
    assert.equal(unauthorized.errorMessage, "401 authentication_error: invalid x-api-key");
    assert.equal(provider.classifyError?.(unauthorized).transient, false);
    assert.equal(server.requests.length, 3, "the SDK must not retry on its own");

    const rateLimited = new APIError(429, { type: "error", error: { type: "rate_limit_error", message: "slow down" } }, undefined, new Headers({ "retry-after": "7" }));
    assert.deepEqual(provider.classifyError?.(rateLimited), { transient: true, status: 429, retryAfterMs: 7000 });
  });

  it("says which connection failed when the server cannot be reached, as a transient error", async () => {
    const gone = await startAnthropicServer();
    await gone.close();
    const message = await provider.stream(claude(gone), { messages: [user("Hi")] }, opts()).result();
    assert.equal(message.stopReason, "error");
    assert.equal(message.errorMessage, `Connection error: connect ECONNREFUSED ${new URL(gone.baseUrl).host}`);
    assert.equal(provider.classifyError?.(message).transient, true);
  });

  it("stops quickly with stopReason aborted when aborted mid-stream, and closes the connection", async () => {
    server.enqueue({ blocks: [{ type: "text", chunks: ["first"] }], hangAfterBlocks: true });
    const controller = new AbortController();
    const events = provider.stream(claude(server), { messages: [user("Hi")] }, opts({ signal: controller.signal }));
    let abortedAt = 0;
    for await (const event of events) {
      if (event.type === "text_delta") {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    const message = await events.result();
    assert.ok(Date.now() - abortedAt < 200, `took ${Date.now() - abortedAt} ms`);
    assert.equal(message.stopReason, "aborted");
    assert.equal(message.errorMessage, "Request was aborted");
    assert.deepEqual(message.content, [{ type: "text", text: "first" }]);
    await server.requests[0].closed;

    const already = await provider.stream(claude(server), { messages: [user("Hi")] }, opts({ signal: AbortSignal.abort() })).result();
    assert.equal(already.stopReason, "aborted");
    assert.equal(server.requests.length, 1);
  });

  it("maps max_tokens to length and a refusal to an error", async () => {
    server.enqueue({ blocks: [{ type: "text", chunks: ["cut"] }], stopReason: "max_tokens" }, { blocks: [], stopReason: "refusal" });
    const long = await provider.stream(claude(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(long.stopReason, "length");
    const refused = await provider.stream(claude(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(refused.stopReason, "error");
    assert.equal(refused.rawStopReason, "refusal");
    assert.match(refused.errorMessage ?? "", /refused/);
  });

  it("fails clearly without an API key, before any request", async () => {
    const { events, message } = await collect(provider.stream(claude(server), { messages: [user("Hi")] }, {}));
    assert.deepEqual(events.map((e) => e.type), ["start", "error"]);
    assert.equal(message.errorMessage, 'No API key for provider "anthropic"');
    assert.equal(server.requests.length, 0);
  });
});

describe("anthropic-messages provider: its bundle", function () {
  this.timeout(60_000);
  it("holds the SDK's messages client, not its other resources (1.4 MB before, issue 31)", async () => {
    // As esbuild.mjs bundles each provider (its HTTP globals injected).
    const root = path.resolve(__dirname, "../../..");
    const result = await build({
      entryPoints: [path.join(__dirname, "anthropic-messages.ts")], bundle: true, platform: "node", format: "cjs", target: "node20", write: false,
      outfile: "anthropic-messages.js", mainFields: ["module", "main"], inject: [path.join(root, "agent-host/ai/http/globals.ts")], logLevel: "error", define: { __PI_BUNDLED__: "true" },
    });
    const bytes = result.outputFiles.find((file) => file.path.endsWith(".js"))!.contents.length;
    // The other resources' error classes stay (the client maps error codes to them): a few KB.
    assert.ok(bytes < 600_000, `the bundle is ${bytes} bytes`);
  });
});

import * as assert from "node:assert/strict";
import { Type } from "@sinclair/typebox";
import OpenAI from "openai";
import { startCompletionsServer, type CompletionsTurn } from "../../../test/llm-servers/openai-completions-server";
import type { ScriptedServer } from "../../../test/llm-servers/sse";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, StreamOptions, ToolCall, UserMessage } from "../types";
import { complete } from "../stream";
import { buildCompletionsParams, provider } from "./openai-completions";

type Body = { messages: Record<string, unknown>[]; tools?: { type: string; function: Record<string, unknown> }[]; [key: string]: unknown };

const readTool = { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) }) };
const user = (content: UserMessage["content"]): UserMessage => ({ role: "user", content, timestamp: 1 });
const zeroUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: AssistantMessage["content"], from: Pick<AssistantMessage, "api" | "provider" | "model">): AssistantMessage => ({
  role: "assistant",
  content,
  ...from,
  usage: zeroUsage,
  stopReason: "toolUse",
  timestamp: 2,
});

describe("openai-completions provider (local chat-completions server)", () => {
  let server: ScriptedServer<CompletionsTurn>;
  let model: Model;

  beforeEach(async () => {
    server = await startCompletionsServer();
    model = {
      id: "gpt-test",
      name: "GPT test",
      api: "openai-completions",
      provider: "openai",
      baseUrl: server.baseUrl,
      reasoning: false,
      input: ["text", "image"],
      cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
      contextWindow: 128_000,
      maxTokens: 16_000,
    };
  });
  afterEach(() => server.close());

  async function run(context: Context, options: StreamOptions = {}, onEvent?: (e: AssistantMessageEvent) => void) {
    const events: AssistantMessageEvent[] = [];
    const stream = provider.stream(model, context, { apiKey: "sk-test", ...options });
    for await (const event of stream) {
      events.push(event);
      onEvent?.(event);
    }
    return { events, message: await stream.result(), body: () => server.requests.at(-1)?.body as Body };
  }
  const hello: Context = { systemPrompt: "Be brief.", messages: [user("Hi")] };

  it("streams text and sends a standard streaming request", async () => {
    server.enqueue({ text: ["Hel", "lo", "!"], usage: { prompt: 12, completion: 3 } });
    const { events, message, body } = await run(hello);
    assert.deepEqual(
      events.map((e) => e.type),
      ["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"],
    );
    assert.deepEqual(message.content, [{ type: "text", text: "Hello!" }]);
    assert.equal(message.stopReason, "stop");
    assert.equal(message.rawStopReason, "stop");
    assert.equal(message.responseId, "chatcmpl-1");
    assert.equal(body().model, "gpt-test");
    assert.equal(body().stream, true);
    assert.deepEqual(body().stream_options, { include_usage: true });
    assert.deepEqual(body().messages, [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
    assert.equal(body().reasoning_effort, undefined);
    assert.equal(server.requests[0].headers.authorization, "Bearer sk-test");
  });

  it("turns reasoning deltas into a thinking block and sends reasoning_effort", async () => {
    model = { ...model, reasoning: true, compat: { supportsDeveloperRole: true } };
    server.enqueue({ reasoning: ["Let me ", "think."], text: ["Done."] }, { reasoning: ["Via reasoning."], reasoningField: "reasoning", text: ["Ok."] });
    const first = await run(hello, { reasoning: "high" });
    assert.deepEqual(first.message.content, [
      { type: "thinking", thinking: "Let me think.", thinkingSignature: "reasoning_content" },
      { type: "text", text: "Done." },
    ]);
    assert.deepEqual(
      first.events.map((e) => e.type).slice(0, 6),
      ["start", "thinking_start", "thinking_delta", "thinking_delta", "thinking_end", "text_start"],
    );
    assert.equal(first.body().reasoning_effort, "high");
    assert.equal(first.body().messages[0].role, "developer");
    const second = await run(hello, { reasoning: "off" });
    assert.deepEqual(second.message.content[0], { type: "thinking", thinking: "Via reasoning.", thinkingSignature: "reasoning" });
    assert.equal(second.body().reasoning_effort, undefined, "off sends no effort");
  });

  it("maps thinking levels through the model's thinkingLevelMap", () => {
    const effort = (m: Partial<Model>, level: StreamOptions["reasoning"]) =>
      buildCompletionsParams({ ...model, reasoning: true, ...m }, hello, { reasoning: level }).reasoning_effort;
    assert.equal(effort({}, "minimal"), "minimal");
    assert.equal(effort({}, "medium"), "medium");
    assert.equal(effort({}, "xhigh"), "high", "xhigh exists only when mapped");
    assert.equal(effort({}, "max"), "high");
    assert.equal(effort({ thinkingLevelMap: { xhigh: "xhigh" } }, "max"), "xhigh", "clamped down to the nearest supported level");
    assert.equal(effort({ thinkingLevelMap: { xhigh: "xhigh", max: "xhigh" } }, "max"), "xhigh");
    assert.equal(effort({ thinkingLevelMap: { minimal: null } }, "minimal"), "low");
    assert.equal(effort({ thinkingLevelMap: { off: "none" } }, "off"), "none");
    assert.equal(effort({ reasoning: false }, "high"), undefined);
    assert.equal(effort({ compat: { supportsReasoningEffort: false } }, "high"), undefined);
    const zai = buildCompletionsParams({ ...model, reasoning: true, compat: { thinkingFormat: "zai" } }, hello, { reasoning: "off" });
    assert.deepEqual(zai.thinking, { type: "disabled" });
    const qwen = buildCompletionsParams({ ...model, reasoning: true, compat: { thinkingFormat: "qwen" } }, hello, { reasoning: "low" });
    assert.equal(qwen.enable_thinking, true);
    const openrouter = buildCompletionsParams({ ...model, reasoning: true, compat: { thinkingFormat: "openrouter" } }, hello, { reasoning: "low" });
    assert.deepEqual(openrouter.reasoning, { effort: "low" });
  });

  for (const interleave of [false, true]) {
    it(`assembles several tool calls from argument chunks${interleave ? " sent interleaved" : ""}`, async () => {
      server.enqueue({
        text: ["Reading both."],
        toolCalls: [
          { id: "call_a", name: "read", arguments: { path: "src/a.ts", limit: 10 }, chunks: 4 },
          { id: "call_b", name: "read", arguments: { path: "src/b.ts" }, chunks: 3 },
        ],
        interleaveToolCalls: interleave,
      });
      const { events, message, body } = await run({ ...hello, tools: [readTool] });
      const calls = message.content.filter((c): c is ToolCall => c.type === "toolCall");
      assert.deepEqual(calls, [
        { type: "toolCall", id: "call_a", name: "read", arguments: { path: "src/a.ts", limit: 10 } },
        { type: "toolCall", id: "call_b", name: "read", arguments: { path: "src/b.ts" } },
      ]);
      assert.equal(message.stopReason, "toolUse");
      assert.equal(events.filter((e) => e.type === "toolcall_delta").length, 7);
      assert.equal(events.filter((e) => e.type === "toolcall_end").length, 2);
      assert.deepEqual(body().tools, [
        {
          type: "function",
          function: {
            name: "read",
            description: "Read a file",
            parameters: { type: "object", properties: { path: { type: "string" }, limit: { type: "integer" } }, required: ["path"] },
          },
        },
      ]);
    });
  }

  it("reports usage with cached tokens apart and prices it with the model's cost", async () => {
    server.enqueue({ text: ["Hi"], usage: { prompt: 1000, cached: 400, completion: 200, reasoning: 50 } });
    const { message } = await run(hello);
    const { cost, ...tokens } = message.usage;
    assert.deepEqual(tokens, { input: 600, output: 200, cacheRead: 400, cacheWrite: 0, reasoning: 50, totalTokens: 1200 });
    assert.ok(Math.abs(cost.input - 600 * 2e-6) < 1e-12);
    assert.ok(Math.abs(cost.output - 200 * 8e-6) < 1e-12);
    assert.ok(Math.abs(cost.cacheRead - 400 * 0.5e-6) < 1e-12);
    assert.ok(Math.abs(cost.total - (0.0012 + 0.0016 + 0.0002)) < 1e-12);
  });

  it("ends with an error when the stream carries an error object, keeping what streamed", async () => {
    server.enqueue({ text: ["Partial "], end: { error: { message: "The server had an error while processing your request.", code: "server_error" } } });
    const { message, events } = await run(hello);
    assert.equal(message.stopReason, "error");
    assert.equal(message.errorMessage, "server_error: The server had an error while processing your request.");
    assert.deepEqual(message.content, [{ type: "text", text: "Partial " }]);
    assert.equal(events.at(-1)?.type, "error");
    assert.equal(provider.classifyError?.(message).transient, true);
  });

  it("ends with an error when the connection drops mid-stream", async () => {
    server.enqueue({ text: ["Half a sen"], toolCalls: [{ name: "read", arguments: { path: "x" } }], end: "drop" });
    const { message } = await run({ ...hello, tools: [readTool] });
    assert.equal(message.stopReason, "error");
    assert.match(message.errorMessage ?? "", /connection/i);
    assert.equal(message.content[0].type === "text" && message.content[0].text, "Half a sen");
    assert.equal(message.content[1].type, "toolCall");
    assert.equal(provider.classifyError?.(message).transient, true);
  });

  it("maps finish_reason length; fails on content_filter and on a stream without finish_reason", async () => {
    server.enqueue({ text: ["Trunc"], finishReason: "length" }, { text: ["Some"], finishReason: "content_filter" }, { text: ["All"], finishReason: null });
    assert.equal((await run(hello)).message.stopReason, "length");
    const filtered = await run(hello);
    assert.equal(filtered.message.stopReason, "error");
    assert.equal(filtered.message.rawStopReason, "content_filter");
    assert.match(filtered.message.errorMessage ?? "", /content_filter/);
    const cut = await run(hello);
    assert.equal(cut.message.stopReason, "error");
    assert.match(cut.message.errorMessage ?? "", /finish_reason/);
  });

  it("reports HTTP errors with status and server message, and classifies them", async () => {
    server.enqueue(
      { kind: "http-error", status: 401, body: { error: { message: "Incorrect API key provided: sk-test.", type: "invalid_request_error", code: "invalid_api_key" } } },
      { kind: "http-error", status: 429, body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, headers: { "retry-after": "7" } },
      { kind: "http-error", status: 503, body: "Service Unavailable" },
      { kind: "http-error", status: 400, body: { error: { message: "Invalid 'messages': empty", type: "invalid_request_error" } } },
    );
    const unauthorized = (await run(hello)).message;
    assert.equal(unauthorized.stopReason, "error");
    assert.equal(unauthorized.errorMessage, "401 Incorrect API key provided: sk-test.");
    assert.deepEqual(provider.classifyError?.(unauthorized), { transient: false, status: 401, retryAfterMs: undefined });
    const limited = (await run(hello)).message;
    assert.match(limited.errorMessage ?? "", /^429 Rate limit reached/);
    assert.equal(provider.classifyError?.(limited).transient, true);
    const unavailable = (await run(hello)).message;
    assert.match(unavailable.errorMessage ?? "", /^503 Service Unavailable/);
    assert.equal(provider.classifyError?.(unavailable).transient, true);
    const bad = (await run(hello)).message;
    assert.equal(provider.classifyError?.(bad).transient, false);
    assert.equal(server.requests.length, 4, "the SDK does not retry on its own");
  });

  it("classifies the SDK's own errors, with Retry-After", async () => {
    const client = new OpenAI({ apiKey: "k", baseURL: server.baseUrl, maxRetries: 0 });
    server.enqueue({ kind: "http-error", status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "7" } });
    const error = await client.chat.completions.create({ model: "m", messages: [] }).catch((e: unknown) => e);
    assert.deepEqual(provider.classifyError?.(error), { transient: true, status: 429, retryAfterMs: 7000 });
  });

  it("stops quickly when aborted mid-stream, keeping what streamed", async () => {
    server.enqueue({ text: ["one ", "two "], end: "hang" });
    const controller = new AbortController();
    let abortedAt = 0;
    const { message } = await run(hello, { signal: controller.signal }, (e) => {
      if (e.type === "text_delta" && !abortedAt) {
        abortedAt = Date.now();
        controller.abort();
      }
    });
    assert.ok(Date.now() - abortedAt < 500, `took ${Date.now() - abortedAt} ms`);
    assert.equal(message.stopReason, "aborted");
    assert.ok(message.content[0].type === "text" && message.content[0].text.startsWith("one "));
    assert.equal((await server.waitForDone(0)).aborted, true);
    assert.equal((await run(hello, { signal: AbortSignal.abort() })).message.stopReason, "aborted", "already aborted");
  });

  it("reports a refused connection as a transient connection error", async () => {
    const closed = await startCompletionsServer();
    await closed.close();
    model = { ...model, baseUrl: closed.baseUrl };
    const { message } = await run(hello);
    assert.equal(message.stopReason, "error");
    assert.match(message.errorMessage ?? "", /^Connection error: .*ECONNREFUSED/);
    assert.equal(provider.classifyError?.(message).transient, true);
  });

  it("is what stream() loads for api openai-completions", async () => {
    server.enqueue({ text: ["via stream()"] });
    const message = await complete(model, hello, { apiKey: "k" });
    assert.deepEqual(message.content, [{ type: "text", text: "via stream()" }]);
  });

  it("takes nothing from OPENAI_* variables and sends the model's and the caller's headers", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: "sk-env", OPENAI_ORG_ID: "org-env", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    try {
      model = { ...model, headers: { "x-model": "m" } };
      await run(hello, { apiKey: undefined, headers: { "x-caller": "c" } });
    } finally {
      process.env = saved;
    }
    const { headers } = server.requests[0];
    assert.equal(headers.authorization, "Bearer none", "a local server needs no key; the env key is not sent");
    assert.equal(headers["openai-organization"], undefined);
    assert.equal(headers["x-model"], "m");
    assert.equal(headers["x-caller"], "c");
  });

  it("fails without a request when a remote server has no API key", async () => {
    model = { ...model, baseUrl: "https://api.example.invalid/v1" };
    const { message } = await run(hello, { apiKey: undefined });
    assert.equal(message.stopReason, "error");
    assert.match(message.errorMessage ?? "", /No API key/);
  });

  it("sends images, tool calls and tool results as Chat Completions expects", async () => {
    const longId = `toolu_${"x".repeat(60)}|fc_item`;
    const previous = assistant(
      [
        { type: "thinking", thinking: "hidden", thinkingSignature: "sig" },
        { type: "text", text: "Looking." },
        { type: "toolCall", id: longId, name: "read", arguments: { path: "a.png" } },
      ],
      { api: "anthropic-messages", provider: "anthropic", model: "claude" },
    );
    const image = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };
    model = { ...model, compat: { requiresToolResultName: true } };
    const { body } = await run({
      systemPrompt: "sys",
      tools: [readTool],
      messages: [
        user([{ type: "text", text: "What is this?" }, image]),
        previous,
        { role: "toolResult", toolCallId: longId, toolName: "read", content: [{ type: "text", text: "a picture" }, image], isError: false, timestamp: 3 },
      ],
    });
    const [system, question, reply, tool, attached] = body().messages;
    assert.deepEqual(system, { role: "system", content: "sys" });
    assert.deepEqual(question.content, [
      { type: "text", text: "What is this?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,aGVsbG8=" } },
    ]);
    const calls = reply.tool_calls as { id: string; function: { name: string; arguments: string } }[];
    assert.equal(reply.content, "Looking.", "another model's thinking is not sent back");
    assert.ok(calls[0].id.length <= 40 && /^[\w-]+$/.test(calls[0].id), calls[0].id);
    assert.deepEqual(calls[0].function, { name: "read", arguments: '{"path":"a.png"}' });
    assert.deepEqual(tool, { role: "tool", tool_call_id: calls[0].id, content: "a picture", name: "read" });
    assert.equal(attached.role, "user");
    assert.deepEqual((attached.content as unknown[])[1], { type: "image_url", image_url: { url: "data:image/png;base64,aGVsbG8=" } });
  });

  it("follows compat switches: no usage in stream, max_tokens field, store, assistant after tool result", async () => {
    model = {
      ...model,
      compat: { supportsUsageInStreaming: false, maxTokensField: "max_tokens", supportsStore: true, requiresAssistantAfterToolResult: true },
    };
    server.enqueue({ text: ["ok"], usage: { prompt: 5, completion: 1 } });
    const { body, message } = await run(
      {
        messages: [
          user("go"),
          assistant([{ type: "toolCall", id: "c1", name: "read", arguments: {} }], { api: "openai-completions", provider: "openai", model: "gpt-test" }),
          { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "r" }], isError: false, timestamp: 1 },
          user("next"),
        ],
      },
      { maxTokens: 321 },
    );
    assert.equal(body().stream_options, undefined);
    assert.equal(body().max_tokens, 321);
    assert.equal(body().max_completion_tokens, undefined);
    assert.equal(body().store, false);
    assert.deepEqual(
      body().messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant", "user"],
    );
    assert.equal(message.usage.input, 0, "no usage chunk was asked for");
  });
});

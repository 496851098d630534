import * as assert from "node:assert/strict";
import { Type } from "@sinclair/typebox";
import { startResponsesServer, type ResponsesTurn } from "../../../test/llm-servers/openai-responses-server";
import type { ScriptedServer } from "../../../test/llm-servers/sse";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, StreamOptions, ToolCall, UserMessage } from "../types";
import { provider } from "./openai-responses";

type Item = Record<string, unknown>;
type Body = { input: Item[]; tools?: Item[]; [key: string]: unknown };

const readTool = { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) }) };
const user = (content: UserMessage["content"]): UserMessage => ({ role: "user", content, timestamp: 1 });
const hello: Context = { systemPrompt: "Be brief.", messages: [user("Hi")] };

describe("openai-responses provider (local Responses server)", () => {
  let server: ScriptedServer<ResponsesTurn>;
  let model: Model;

  beforeEach(async () => {
    server = await startResponsesServer();
    model = {
      id: "gpt-5-test",
      name: "GPT-5 test",
      api: "openai-responses",
      provider: "openai",
      baseUrl: server.baseUrl,
      reasoning: true,
      input: ["text", "image"],
      cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
      contextWindow: 400_000,
      maxTokens: 128_000,
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

  it("streams text, signs it with the message id and sends a stateless request", async () => {
    model = { ...model, reasoning: false };
    server.enqueue({ text: ["Hel", "lo"] });
    const { events, message, body } = await run(hello, { maxTokens: 5, temperature: 0.2, sessionId: "session-1" });
    assert.deepEqual(
      events.map((e) => e.type),
      ["start", "text_start", "text_delta", "text_delta", "text_end", "done"],
    );
    assert.deepEqual(message.content, [{ type: "text", text: "Hello", textSignature: "msg_1" }]);
    assert.equal(message.stopReason, "stop");
    assert.equal(message.responseId, "resp_1");
    assert.equal(body().stream, true);
    assert.equal(body().store, false);
    assert.equal(body().max_output_tokens, 16, "OpenAI's minimum");
    assert.equal(body().temperature, 0.2);
    assert.equal(body().prompt_cache_key, "session-1");
    assert.equal(body().reasoning, undefined);
    assert.equal(body().include, undefined);
    assert.deepEqual(body().input, [
      { type: "message", role: "system", content: "Be brief." },
      { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] },
    ]);
  });

  it("streams reasoning summaries as thinking, signed with the encrypted reasoning item", async () => {
    server.enqueue({ reasoning: { summary: [["Plan ", "A."], ["Then B."]], encrypted: "gAAAA-secret" }, text: ["Done."] });
    const { message, events, body } = await run(hello, { reasoning: "high" });
    const [thinking, text] = message.content;
    assert.equal(thinking.type === "thinking" && thinking.thinking, "Plan A.\n\nThen B.");
    const item = JSON.parse((thinking.type === "thinking" && thinking.thinkingSignature) || "{}") as Item;
    assert.equal(item.type, "reasoning");
    assert.equal(item.id, "rs_1");
    assert.equal(item.encrypted_content, "gAAAA-secret");
    assert.deepEqual(text, { type: "text", text: "Done.", textSignature: "msg_1" });
    assert.deepEqual(
      events.map((e) => e.type).slice(0, 6),
      ["start", "thinking_start", "thinking_delta", "thinking_delta", "thinking_delta", "thinking_delta"],
    );
    assert.deepEqual(body().reasoning, { effort: "high", summary: "auto" });
    assert.deepEqual(body().include, ["reasoning.encrypted_content"]);
    assert.equal(body().input[0].role, "developer", "reasoning models take instructions as developer");
    const off = await run(hello, { reasoning: "off" });
    assert.equal(off.body().reasoning, undefined, "off leaves the model's default");
    model = { ...model, thinkingLevelMap: { off: "none", xhigh: "xhigh" } };
    assert.deepEqual((await run(hello, { reasoning: "off" })).body().reasoning, { effort: "none" });
    assert.deepEqual((await run(hello, { reasoning: "xhigh" })).body().reasoning, { effort: "xhigh", summary: "auto" });
  });

  it("assembles several function calls from argument deltas", async () => {
    server.enqueue({
      toolCalls: [
        { callId: "call_a", name: "read", arguments: { path: "src/a.ts", limit: 3 }, chunks: 5 },
        { callId: "call_b", name: "read", arguments: { path: "src/b.ts" }, chunks: 2 },
      ],
    });
    model = { ...model, compat: { supportsStrictMode: true } };
    const { message, events, body } = await run({ ...hello, tools: [readTool] });
    const calls = message.content.filter((c): c is ToolCall => c.type === "toolCall");
    assert.deepEqual(calls, [
      { type: "toolCall", id: "call_a|fc_1_0", name: "read", arguments: { path: "src/a.ts", limit: 3 } },
      { type: "toolCall", id: "call_b|fc_1_1", name: "read", arguments: { path: "src/b.ts" } },
    ]);
    assert.equal(message.stopReason, "toolUse");
    assert.equal(events.filter((e) => e.type === "toolcall_delta").length, 7);
    assert.deepEqual(body().tools, [
      {
        type: "function",
        name: "read",
        description: "Read a file",
        parameters: { type: "object", properties: { path: { type: "string" }, limit: { type: "integer" } }, required: ["path"] },
        strict: false,
      },
    ]);
    model = { ...model, compat: {} };
    server.enqueue({ text: ["x"] });
    assert.equal((await run({ ...hello, tools: [readTool] })).body().tools?.[0].strict, undefined, "not for other servers");
  });

  it("reports usage with cached tokens apart and prices it", async () => {
    server.enqueue({ text: ["x"], usage: { input: 2000, cached: 1500, output: 300, reasoning: 120 } });
    const { message } = await run(hello);
    const { cost, ...tokens } = message.usage;
    assert.deepEqual(tokens, { input: 500, output: 300, cacheRead: 1500, cacheWrite: 0, reasoning: 120, totalTokens: 2300 });
    assert.ok(Math.abs(cost.total - (500 * 1.25 + 300 * 10 + 1500 * 0.125) / 1e6) < 1e-12);
  });

  it("replays its own previous turn whole and other models' turns as plain items", async () => {
    server.enqueue({ reasoning: { summary: [["Think."]], encrypted: "enc-1" }, text: ["Let me read."], toolCalls: [{ callId: "call_r", name: "read", arguments: { path: "a" } }] });
    const first = (await run({ ...hello, tools: [readTool] }, { reasoning: "medium" })).message;
    const foreign: AssistantMessage = {
      ...first,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude",
      content: [
        { type: "thinking", thinking: "foreign thought", thinkingSignature: "anthropic-sig" },
        { type: "text", text: "Also this.", textSignature: "msg_other" },
        { type: "toolCall", id: "toolu_01", name: "read", arguments: { path: "b" } },
      ],
    };
    const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
    const toolCall = first.content.find((c): c is ToolCall => c.type === "toolCall");
    await run({
      ...hello,
      tools: [readTool],
      messages: [
        user([{ type: "text", text: "Look" }, image]),
        first,
        { role: "toolResult", toolCallId: toolCall?.id ?? "", toolName: "read", content: [{ type: "text", text: "A" }], isError: false, timestamp: 3 },
        foreign,
        { role: "toolResult", toolCallId: "toolu_01", toolName: "read", content: [{ type: "text", text: "B" }, image], isError: false, timestamp: 4 },
      ],
    });
    const input = server.requests[1].body.input as Item[];
    assert.deepEqual(input.slice(1), [
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "Look" },
          { type: "input_image", detail: "auto", image_url: "data:image/png;base64,aGk=" },
        ],
      },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Think." }], encrypted_content: "enc-1" },
      { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Let me read.", annotations: [] }] },
      { type: "function_call", call_id: "call_r", name: "read", arguments: '{"path":"a"}', id: "fc_1_0" },
      { type: "function_call_output", call_id: "call_r", output: "A" },
      { type: "message", role: "assistant", content: "Also this." },
      { type: "function_call", call_id: "toolu_01", name: "read", arguments: '{"path":"b"}' },
      {
        type: "function_call_output",
        call_id: "toolu_01",
        output: [
          { type: "input_text", text: "B" },
          { type: "input_image", detail: "auto", image_url: "data:image/png;base64,aGk=" },
        ],
      },
    ]);
  });

  it("ends with an error on response.failed and on an error event, keeping what streamed", async () => {
    server.enqueue(
      { text: ["Partial"], end: { failed: { code: "server_error", message: "The model failed to generate a response." } } },
      { text: ["Part"], end: { error: { code: "rate_limit_exceeded", message: "Rate limit reached for requests" } } },
      { text: ["Part"], end: { error: { code: "invalid_prompt", message: "Invalid prompt: flagged" } } },
    );
    const failed = (await run(hello)).message;
    assert.equal(failed.stopReason, "error");
    assert.equal(failed.errorMessage, "server_error: The model failed to generate a response.");
    assert.deepEqual(failed.content, [{ type: "text", text: "Partial", textSignature: "msg_1" }]);
    assert.equal(provider.classifyError?.(failed).transient, true);
    const limited = (await run(hello)).message;
    assert.equal(limited.errorMessage, "rate_limit_exceeded: Rate limit reached for requests");
    assert.equal(provider.classifyError?.(limited).transient, true);
    const invalid = (await run(hello)).message;
    assert.equal(provider.classifyError?.(invalid).transient, false);
  });

  it("ends with an error when the connection drops, and on incomplete responses", async () => {
    server.enqueue(
      { text: ["Half"], toolCalls: [{ name: "read", arguments: { path: "x" } }], end: "drop" },
      { text: ["Long"], status: "incomplete", incompleteReason: "max_output_tokens" },
      { text: ["Bad"], status: "incomplete", incompleteReason: "content_filter" },
    );
    const dropped = (await run(hello)).message;
    assert.equal(dropped.stopReason, "error");
    assert.match(dropped.errorMessage ?? "", /connection/i);
    assert.equal(dropped.content.length, 2);
    assert.equal(provider.classifyError?.(dropped).transient, true);
    const long = (await run(hello)).message;
    assert.equal(long.stopReason, "length");
    assert.equal(long.rawStopReason, "incomplete.max_output_tokens");
    const filtered = (await run(hello)).message;
    assert.equal(filtered.stopReason, "error");
    assert.match(filtered.errorMessage ?? "", /content_filter/);
  });

  it("reports HTTP errors with status and server message, and classifies them", async () => {
    server.enqueue(
      { kind: "http-error", status: 401, body: { error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } } },
      { kind: "http-error", status: 429, body: { error: { message: "Rate limit reached", code: "rate_limit_exceeded" } } },
      { kind: "http-error", status: 503, body: "upstream connect error" },
    );
    const unauthorized = (await run(hello)).message;
    assert.equal(unauthorized.errorMessage, "401 Incorrect API key provided.");
    assert.equal(provider.classifyError?.(unauthorized).transient, false);
    assert.equal(provider.classifyError?.((await run(hello)).message).transient, true);
    const unavailable = (await run(hello)).message;
    assert.match(unavailable.errorMessage ?? "", /^503 /);
    assert.equal(provider.classifyError?.(unavailable).transient, true);
    assert.equal(server.requests.length, 3);
  });

  it("stops quickly when aborted mid-stream", async () => {
    server.enqueue({ reasoning: { summary: [["Thinking…"]] }, text: ["a", "b"], end: "hang" });
    const controller = new AbortController();
    let abortedAt = 0;
    const { message } = await run(hello, { signal: controller.signal, reasoning: "low" }, (e) => {
      if (e.type === "text_delta" && !abortedAt) {
        abortedAt = Date.now();
        controller.abort();
      }
    });
    assert.ok(Date.now() - abortedAt < 500, `took ${Date.now() - abortedAt} ms`);
    assert.equal(message.stopReason, "aborted");
    assert.equal(message.content[0].type, "thinking");
    assert.equal((await server.waitForDone(0)).aborted, true);
  });
});

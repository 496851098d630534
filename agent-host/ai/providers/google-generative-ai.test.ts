import * as assert from "node:assert/strict";
import { Type } from "@sinclair/typebox";
import { startGoogleServer, type GoogleServer } from "../../../test/llm-servers/google-server";
import type { AssistantMessageEventStream } from "../event-stream";
import { thinkingConfig } from "../google/request";
import { stream } from "../stream";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, StreamOptions } from "../types";
import { provider } from "./google-generative-ai";

function gemini(server: Pick<GoogleServer, "baseUrl">, overrides: Partial<Model> = {}): Model {
  return {
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    api: "google-generative-ai",
    provider: "google",
    baseUrl: server.baseUrl,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
    contextWindow: 1_048_576,
    maxTokens: 65_536,
    ...overrides,
  };
}

async function collect(events: AssistantMessageEventStream): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
  const seen: AssistantMessageEvent[] = [];
  for await (const event of events) seen.push(event);
  return { events: seen, message: await events.result() };
}

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });
type Body = {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: unknown;
  tools?: { functionDeclarations: Record<string, unknown>[] }[];
  generationConfig?: Record<string, unknown>;
};
// Thought signatures are base64 bytes on the wire.
const textSignature = Buffer.from("signature-of-text").toString("base64");
const callSignature = Buffer.from("signature-of-call").toString("base64");

describe("google-generative-ai provider (real SDK against a local Gemini wire server)", () => {
  let server: GoogleServer;
  beforeEach(async () => (server = await startGoogleServer()));
  afterEach(() => server.close());
  const opts = (extra: StreamOptions = {}): StreamOptions => ({ apiKey: server.apiKey, ...extra });

  it("streams text through stream() from streamGenerateContent?alt=sse, with the system instruction and the API key", async () => {
    server.enqueue({ responseId: "resp-42", chunks: [[{ text: "Hel" }], [{ text: "lo" }], [{ text: " world" }]] });
    const { events, message } = await collect(stream(gemini(server), { systemPrompt: "You are terse.", messages: [user("Hi")] }, opts()));

    assert.deepEqual(events.map((e) => e.type), ["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"]);
    assert.deepEqual(message.content, [{ type: "text", text: "Hello world" }]);
    assert.equal(message.stopReason, "stop");
    assert.equal(message.rawStopReason, "STOP");
    assert.equal(message.responseId, "resp-42");

    const [request] = server.requests;
    assert.equal(request.url, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assert.equal(request.headers["x-goog-api-key"], server.apiKey);
    const body = request.body as Body;
    assert.deepEqual(body.contents, [{ role: "user", parts: [{ text: "Hi" }] }]);
    assert.deepEqual(body.systemInstruction, { role: "user", parts: [{ text: "You are terse." }] });
    // Thinking off on a Gemini 2.5 Flash: a zero budget.
    assert.deepEqual(body.generationConfig, { thinkingConfig: { thinkingBudget: 0 } });
  });

  it("maps a thinking level to thinkingConfig and streams thought parts, keeping the text's thought signature", async () => {
    server.enqueue({
      chunks: [[{ text: "Thinking about", thought: true }], [{ text: " it.", thought: true }], [{ text: "Answer", thoughtSignature: textSignature }]],
    });
    const { events, message } = await collect(provider.stream(gemini(server), { messages: [user("Why?")] }, opts({ reasoning: "high", maxTokens: 1000 })));

    const body = server.requests[0].body as Body;
    assert.deepEqual(body.generationConfig, { maxOutputTokens: 1000 + 24576, thinkingConfig: { includeThoughts: true, thinkingBudget: 24576 } });
    assert.deepEqual(events.map((e) => e.type), ["start", "thinking_start", "thinking_delta", "thinking_delta", "thinking_end", "text_start", "text_delta", "text_end", "done"]);
    assert.deepEqual(message.content, [
      { type: "thinking", thinking: "Thinking about it." },
      { type: "text", text: "Answer", textSignature },
    ]);
  });

  it("chooses budgets per Gemini 2.5 family and thinking levels for Gemini 3, which cannot turn thinking off", () => {
    const base = gemini({ baseUrl: "" });
    assert.deepEqual(thinkingConfig({ ...base, id: "gemini-2.5-pro" }, "medium"), { includeThoughts: true, thinkingBudget: 8192 });
    assert.deepEqual(thinkingConfig({ ...base, id: "gemini-2.5-pro" }, undefined), { includeThoughts: false, thinkingBudget: 128 });
    assert.deepEqual(thinkingConfig({ ...base, id: "gemini-2.5-flash-lite" }, "minimal"), { includeThoughts: true, thinkingBudget: 512 });
    assert.deepEqual(thinkingConfig({ ...base, id: "gemini-3-flash-preview" }, "xhigh"), { includeThoughts: true, thinkingLevel: "HIGH" });
    const pro3 = { ...base, id: "gemini-3.1-pro-preview", thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high" } };
    assert.deepEqual(thinkingConfig(pro3, "off"), { includeThoughts: false, thinkingLevel: "LOW" });
    assert.deepEqual(thinkingConfig({ ...base, id: "gemma-4-31b-it", thinkingLevelMap: { minimal: "MINIMAL" } }, "minimal"), { includeThoughts: true, thinkingLevel: "MINIMAL" });
    assert.equal(thinkingConfig({ ...base, reasoning: false }, "high"), undefined);
  });

  it("streams several tool calls, one functionCall part each, with generated unique ids and the thought signature", async () => {
    server.enqueue({
      chunks: [
        [{ text: "Checking." }],
        [{ functionCall: { name: "read", args: { path: "a.ts" } }, thoughtSignature: callSignature }],
        [{ functionCall: { name: "read", args: { path: "b.ts" } } }, { functionCall: { name: "bash", args: { command: "ls -la", timeout: 5 } } }],
      ],
    });
    const { events, message } = await collect(provider.stream(gemini(server), { messages: [user("Look")] }, opts()));

    const calls = message.content.filter((c) => c.type === "toolCall");
    assert.deepEqual(calls.map((c) => [c.name, c.arguments]), [["read", { path: "a.ts" }], ["read", { path: "b.ts" }], ["bash", { command: "ls -la", timeout: 5 }]]);
    const ids = calls.map((c) => c.id);
    assert.equal(new Set(ids).size, 3);
    for (const id of ids) assert.match(id, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.equal(calls[0].thoughtSignature, callSignature);
    assert.equal(calls[1].thoughtSignature, undefined);
    const types = events.map((e) => e.type);
    assert.deepEqual(types.slice(0, 5), ["start", "text_start", "text_delta", "text_end", "toolcall_start"]);
    assert.equal(types.filter((t) => t === "toolcall_delta").length, 3);
    const deltas = events.flatMap((e) => (e.type === "toolcall_delta" ? [JSON.parse(e.delta) as unknown] : []));
    assert.deepEqual(deltas, [{ path: "a.ts" }, { path: "b.ts" }, { command: "ls -la", timeout: 5 }]);
    assert.equal(message.stopReason, "toolUse");
    assert.equal(message.rawStopReason, "STOP");
  });

  it("reports usage (thinking counted as output, cached tokens as cache reads) and its cost", async () => {
    server.enqueue({ chunks: [[{ text: "ok" }]], usage: { prompt: 1000, candidates: 200, thoughts: 300, cached: 400 } });
    const { usage } = await provider.stream(gemini(server), { messages: [user("Hi")] }, opts()).result();
    assert.deepEqual([usage.input, usage.output, usage.reasoning, usage.cacheRead, usage.cacheWrite, usage.totalTokens], [600, 500, 300, 400, 0, 1500]);
    const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);
    close(usage.cost.input, (600 * 0.3) / 1e6);
    close(usage.cost.output, (500 * 2.5) / 1e6);
    close(usage.cost.cacheRead, (400 * 0.03) / 1e6);
    close(usage.cost.total, (600 * 0.3 + 500 * 2.5 + 400 * 0.03) / 1e6);
  });

  it("sends function declarations cleaned to Gemini's schema subset, and replays calls, signatures, results and images", async () => {
    server.enqueue({ chunks: [[{ text: "Done." }]] });
    const png = "iVBORw0KGgo=";
    const parameters = Type.Object(
      {
        mode: Type.Union([Type.Literal("fast"), Type.Literal("slow")], { description: "How" }),
        limit: Type.Optional(Type.Union([Type.Integer({ exclusiveMinimum: 0 }), Type.Null()])),
        url: Type.String({ format: "uri" }),
        tags: Type.Array(Type.String(), { maxItems: 3 }),
      },
      { additionalProperties: false, $id: "Params" },
    );
    const assistant = (content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage => ({
      role: "assistant",
      content,
      api: "google-generative-ai",
      provider: "google",
      model: "gemini-2.5-flash",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "toolUse",
      timestamp: 2,
      ...from,
    });
    const context: Context = {
      systemPrompt: "Be brief.",
      tools: [
        { name: "search", description: "Search", parameters },
        { name: "now", description: "The time", parameters: Type.Object({}) },
        { name: "label", description: "Set labels", parameters: Type.Object({ labels: Type.Record(Type.String(), Type.String()) }, { $id: "Labels" }) },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "Look at this" }, { type: "image", data: png, mimeType: "image/png" }], timestamp: 1 },
        assistant([
          { type: "thinking", thinking: "Plan.", thinkingSignature: textSignature },
          { type: "text", text: "", textSignature },
          { type: "toolCall", id: "call_1", name: "search", arguments: { mode: "fast" }, thoughtSignature: callSignature },
          { type: "toolCall", id: "call_2", name: "now", arguments: {} },
        ]),
        { role: "toolResult", toolCallId: "call_1", toolName: "search", content: [{ type: "text", text: "found" }, { type: "image", data: png, mimeType: "image/png" }], isError: false, timestamp: 3 },
        { role: "toolResult", toolCallId: "call_2", toolName: "now", content: [{ type: "text", text: "clock broken" }], isError: true, timestamp: 4 },
        assistant([{ type: "thinking", thinking: "Claude's thoughts", thinkingSignature: "anthropic-sig" }, { type: "text", text: "Next." }], {
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-haiku-4-5",
          stopReason: "stop",
        }),
        user("thanks"),
      ],
    };
    const { message } = await collect(provider.stream(gemini(server), context, opts()));
    assert.equal(message.stopReason, "stop");

    const body = server.requests[0].body as Body;
    assert.deepEqual(body.tools?.[0].functionDeclarations, [
      {
        name: "search",
        description: "Search",
        parameters: {
          type: "OBJECT",
          required: ["mode", "url", "tags"],
          properties: {
            mode: { description: "How", enum: ["fast", "slow"], type: "STRING" },
            limit: { nullable: true, type: "INTEGER" },
            url: { type: "STRING" },
            tags: { type: "ARRAY", items: { type: "STRING" }, maxItems: 3 },
          },
        },
      },
      { name: "now", description: "The time" },
      {
        name: "label",
        description: "Set labels",
        parametersJsonSchema: {
          type: "object",
          required: ["labels"],
          properties: { labels: { type: "object", patternProperties: { "^(.*)$": { type: "string" } } } },
        },
      },
    ]);
    const inline = { inlineData: { mimeType: "image/png", data: png } };
    assert.deepEqual(body.contents, [
      { role: "user", parts: [{ text: "Look at this" }, inline] },
      {
        role: "model",
        parts: [
          { thought: true, text: "Plan.", thoughtSignature: textSignature },
          { text: "", thoughtSignature: textSignature },
          { functionCall: { name: "search", args: { mode: "fast" } }, thoughtSignature: callSignature },
          { functionCall: { name: "now", args: {} } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "search", response: { output: "found" } } },
          { functionResponse: { name: "now", response: { error: "clock broken" } } },
        ],
      },
      { role: "user", parts: [{ text: "Images returned by the tools above:" }, inline] },
      { role: "model", parts: [{ text: "Claude's thoughts" }, { text: "Next." }] },
      { role: "user", parts: [{ text: "thanks" }] },
    ]);
  });

  it("pairs calls and results by id for Gemini 3", async () => {
    server.enqueue({ chunks: [[{ text: "ok" }]] });
    const model = gemini(server, { id: "gemini-3-flash-preview" });
    const call: AssistantMessage = {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_9", name: "now", arguments: {} }],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "toolUse",
      timestamp: 2,
    };
    const context: Context = {
      messages: [user("time?"), call, { role: "toolResult", toolCallId: "call_9", toolName: "now", content: [{ type: "text", text: "noon" }], isError: false, timestamp: 3 }],
    };
    await provider.stream(model, context, opts()).result();
    const body = server.requests[0].body as Body;
    assert.deepEqual(body.contents[1].parts, [{ functionCall: { id: "call_9", name: "now", args: {} } }]);
    assert.deepEqual(body.contents[2].parts, [{ functionResponse: { id: "call_9", name: "now", response: { output: "noon" } } }]);
  });

  it("ends with an error, keeping the partial text, when Google writes an error into the stream", async () => {
    server.enqueue({ chunks: [[{ text: "Partial" }]], errorAfterChunks: { code: 503, status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." } });
    const { events, message } = await collect(provider.stream(gemini(server), { messages: [user("Hi")] }, opts()));
    assert.equal(events[events.length - 1].type, "error");
    assert.equal(message.stopReason, "error");
    assert.equal(message.errorMessage, "503 UNAVAILABLE: The model is overloaded. Please try again later.");
    assert.deepEqual(message.content, [{ type: "text", text: "Partial" }]);
    assert.deepEqual(provider.classifyError?.(message), { transient: true, status: 503, retryAfterMs: undefined });
  });

  it("turns HTTP errors into the server's message and classifies them", async () => {
    server.enqueue(
      { kind: "http-error", status: 429, statusName: "RESOURCE_EXHAUSTED", message: "Resource has been exhausted (e.g. check quota)." },
      { kind: "http-error", status: 400, statusName: "INVALID_ARGUMENT", message: "Invalid JSON payload received. Unknown name \"foo\"" },
    );
    const limited = await provider.stream(gemini(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(limited.stopReason, "error");
    assert.equal(limited.errorMessage, "429 RESOURCE_EXHAUSTED: Resource has been exhausted (e.g. check quota).");
    assert.equal(provider.classifyError?.(limited.errorMessage).transient, true);

    const invalid = await provider.stream(gemini(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(invalid.errorMessage, '400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "foo"');
    assert.equal(provider.classifyError?.(invalid).transient, false);

    const badKey = await provider.stream(gemini(server), { messages: [user("Hi")] }, { apiKey: "wrong" }).result();
    assert.equal(badKey.errorMessage, "400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key.");
    assert.equal(server.requests.length, 3, "the SDK must not retry on its own");
  });

  it("says which connection failed when the server cannot be reached, as a transient error", async () => {
    const gone = await startGoogleServer();
    await gone.close();
    const message = await provider.stream(gemini(gone), { messages: [user("Hi")] }, opts()).result();
    assert.equal(message.stopReason, "error");
    assert.equal(message.errorMessage, `fetch failed: connect ECONNREFUSED ${new URL(gone.baseUrl).host}`);
    assert.equal(provider.classifyError?.(message).transient, true);
  });

  it("stops quickly with stopReason aborted when aborted mid-stream, and closes the connection", async () => {
    server.enqueue({ chunks: [[{ text: "first" }]], hangAfterChunks: true });
    const controller = new AbortController();
    const events = provider.stream(gemini(server), { messages: [user("Hi")] }, opts({ signal: controller.signal }));
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
    assert.deepEqual(message.content, [{ type: "text", text: "first" }]);
    await server.requests[0].closed;
  });

  it("maps MAX_TOKENS to length and SAFETY to an error", async () => {
    server.enqueue({ chunks: [[{ text: "cut" }]], finishReason: "MAX_TOKENS" }, { chunks: [[]], finishReason: "SAFETY" });
    const long = await provider.stream(gemini(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(long.stopReason, "length");
    const unsafe = await provider.stream(gemini(server), { messages: [user("Hi")] }, opts()).result();
    assert.equal(unsafe.stopReason, "error");
    assert.equal(unsafe.rawStopReason, "SAFETY");
    assert.equal(unsafe.errorMessage, "Gemini stopped: SAFETY");
  });

  it("fails clearly without an API key, before any request", async () => {
    const message = await provider.stream(gemini(server), { messages: [user("Hi")] }, {}).result();
    assert.equal(message.errorMessage, 'No API key for provider "google"');
    assert.equal(server.requests.length, 0);
  });
});

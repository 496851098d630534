/**
 * OpenAI Chat Completions (`POST /chat/completions`, streamed): OpenAI and the many servers that
 * speak it (Ollama, vLLM, LM Studio, llama.cpp, OpenRouter, Groq…). Differences between servers
 * are the model's `compat` switches (../openai/compat.ts).
 */
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { ReasoningEffort } from "openai/resources/shared";
import { MessageStreamBuilder } from "../message-stream-builder";
import { readSseJson } from "../openai/sse";
import { createOpenAIClient, isAbortError } from "../openai/client";
import { resolveCompat, type ResolvedCompat } from "../openai/compat";
import { convertChatMessages, convertChatTools, reasoningFields } from "../openai/completions-messages";
import { classifyOpenAIError, openAIErrorMessage } from "../openai/errors";
import { reasoningEffort, thinkingEnabled } from "../openai/thinking";
import { defineProvider } from "../provider";
import type { Context, Model, StreamOptions, Usage } from "../types";

/** The request body: OpenAI's, plus the reasoning switches of some compatible servers. */
export type CompletionsParams = ChatCompletionCreateParamsStreaming & {
  /** Qwen (DashScope, vLLM chat templates). */
  enable_thinking?: boolean;
  /** Z.ai GLM. */
  thinking?: { type: "enabled" | "disabled" };
  /** OpenRouter's normalized reasoning object. */
  reasoning?: { effort: string };
};

export function buildCompletionsParams(model: Model, context: Context, options: StreamOptions, compat = resolveCompat(model)): CompletionsParams {
  const params: CompletionsParams = { model: model.id, messages: convertChatMessages(model, context, compat), stream: true };
  if (compat.supportsUsageInStreaming) params.stream_options = { include_usage: true };
  if (compat.supportsStore) params.store = false;
  if (options.maxTokens) params[compat.maxTokensField] = options.maxTokens;
  if (options.temperature !== undefined) params.temperature = options.temperature;
  if (context.tools?.length) params.tools = convertChatTools(context.tools, compat);
  if (options.sessionId && model.baseUrl.includes("api.openai.com")) params.prompt_cache_key = options.sessionId.slice(0, 64);
  if (model.reasoning) {
    const enabled = thinkingEnabled(model, options.reasoning);
    const effort = reasoningEffort(model, options.reasoning);
    if (compat.thinkingFormat === "zai") params.thinking = { type: enabled ? "enabled" : "disabled" };
    else if (compat.thinkingFormat === "qwen") params.enable_thinking = enabled;
    else if (compat.thinkingFormat === "openrouter") {
      if (effort) params.reasoning = { effort };
    } else if (effort && compat.supportsReasoningEffort) params.reasoning_effort = effort as ReasoningEffort;
  }
  return params;
}

/** A chunk's delta as compatible servers send it: OpenAI's fields plus a reasoning field. */
type Delta = ChatCompletionChunk.Choice.Delta & Partial<Record<(typeof reasoningFields)[number], string | null>>;
type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;
/** Usage as servers report it: DeepSeek names cached tokens differently. */
type WireUsage = CompletionUsage & { prompt_cache_hit_tokens?: number };

export function usageFromWire(usage: WireUsage): Partial<Omit<Usage, "cost" | "totalTokens">> {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    input: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
    output: usage.completion_tokens ?? 0,
    cacheRead: cached,
    ...(typeof reasoning === "number" ? { reasoning } : {}),
  };
}

/** Maps a finish_reason; undefined for the ones that mean the reply failed. */
function stopReasonOf(reason: string): "stop" | "length" | undefined {
  if (reason === "length" || reason === "max_tokens") return "length";
  if (reason === "content_filter" || reason === "error" || reason === "network_error") return undefined;
  // stop, tool_calls, function_call and servers' own names (eos, end_turn): the builder turns
  // "stop" into "toolUse" when the reply holds tool calls.
  return "stop";
}

/** Maps the chunks of one reply onto the builder: text and reasoning segments, tool calls by index. */
class ChunkReader {
  private segment: { kind: "text" | "thinking"; key: string } | undefined;
  private segments = 0;
  private readonly toolCalls = new Map<string, { id: string; name: string }>();
  finishReason: string | undefined;

  constructor(private readonly builder: MessageStreamBuilder) {}

  read(chunk: ChatCompletionChunk): void {
    this.builder.setResponseId(chunk.id);
    const choice = chunk.choices?.[0] as (ChatCompletionChunk.Choice & { usage?: WireUsage }) | undefined;
    // Usage comes in a last chunk without choices; some servers (Moonshot) put it in the choice.
    const usage = chunk.usage ?? choice?.usage;
    if (usage) this.builder.usage(usageFromWire(usage));
    if (!choice) return;
    const delta = (choice.delta ?? {}) as Delta;
    // Servers that send the same reasoning under two names: the first one counts.
    const field = reasoningFields.find((f) => typeof delta[f] === "string" && delta[f] !== "");
    if (field) this.appendSegment("thinking", delta[field] as string, field);
    if (typeof delta.content === "string" && delta.content) this.appendSegment("text", delta.content);
    for (const call of delta.tool_calls ?? []) this.toolCall(call);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  private appendSegment(kind: "text" | "thinking", delta: string, field?: string): void {
    if (this.segment?.kind !== kind) {
      if (this.segment) this.builder.end(this.segment.key);
      this.segment = { kind, key: `${kind}-${this.segments++}` };
    }
    if (kind === "text") this.builder.text(this.segment.key, delta);
    else {
      this.builder.thinking(this.segment.key, delta);
      // The field it came in is where it goes back (see convertAssistant).
      if (field) this.builder.sign(this.segment.key, field);
    }
  }

  private toolCall(call: ToolCallDelta): void {
    if (this.segment) this.builder.end(this.segment.key);
    this.segment = undefined;
    // By index (OpenAI); servers without one: by id, else the call in progress.
    const key =
      typeof call.index === "number" ? `tool-${call.index}` : call.id ? `tool-${call.id}` : ([...this.toolCalls.keys()].at(-1) ?? "tool-0");
    let known = this.toolCalls.get(key);
    if (!known) {
      known = { id: call.id || `call_${this.toolCalls.size}_${Date.now().toString(36)}`, name: call.function?.name ?? "" };
      this.toolCalls.set(key, known);
      this.builder.toolCallStart(key, known.id, known.name);
    } else {
      // Some servers send the id or name only in a later chunk.
      if (call.id) known.id = call.id;
      if (call.function?.name && !known.name) known.name = call.function.name;
    }
    if (call.function?.arguments) this.builder.toolCallArguments(key, call.function.arguments);
  }

  /** Ends the reply; throws when the stream ended without a finish_reason (a dropped connection) or with a failed one. */
  finish(): void {
    if (this.segment) this.builder.end(this.segment.key);
    for (const [key, { id, name }] of this.toolCalls) this.builder.end(key, { id, name });
    const raw = this.finishReason;
    if (!raw) throw new Error("The stream ended before the reply was finished (no finish_reason): the connection was closed");
    const stop = stopReasonOf(raw);
    if (stop) {
      this.builder.finish(stop, raw);
      return;
    }
    this.builder.message.rawStopReason = raw;
    throw new Error(`The provider stopped the reply: finish_reason "${raw}"`);
  }
}

async function run(builder: MessageStreamBuilder, model: Model, context: Context, options: StreamOptions): Promise<void> {
  const compat: ResolvedCompat = resolveCompat(model);
  const client = createOpenAIClient(model, options);
  const params = buildCompletionsParams(model, context, options, compat);
  options.onPayload?.(params);
  // The raw response, read with our own SSE decoder: the SDK's is quadratic in events per read.
  const response = await client.chat.completions.create(params, { signal: options.signal }).asResponse();
  if (!response.body) throw new Error("The server sent no response body");
  const reader = new ChunkReader(builder);
  for await (const batch of readSseJson(response.body)) for (const chunk of batch) reader.read(chunk as unknown as ChatCompletionChunk);
  if (options.signal?.aborted) {
    builder.fail(undefined, true);
    return;
  }
  reader.finish();
}

export const provider = defineProvider("openai-completions", run, { isAbort: isAbortError, describe: openAIErrorMessage }, classifyOpenAIError);

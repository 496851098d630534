/**
 * OpenAI Responses (`POST /responses`, streamed), stateless: `store: false`, and reasoning comes
 * back encrypted (`include: ["reasoning.encrypted_content"]`) so the next request can replay it.
 */
import type {
  Response,
  ResponseCreateParamsStreaming,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from "openai/resources/responses/responses";
import type { ReasoningEffort } from "openai/resources/shared";
import { MessageStreamBuilder } from "../message-stream-builder";
import { createOpenAIClient, isAbortError } from "../openai/client";
import { classifyOpenAIError, openAIErrorMessage, StreamReportedError } from "../openai/errors";
import { convertResponsesInput, convertResponsesTools } from "../openai/responses-input";
import { reasoningEffort, thinkingEnabled } from "../openai/thinking";
import { defineProvider } from "../provider";
import type { Context, Model, StreamOptions, Usage } from "../types";

/** OpenAI rejects max_output_tokens below 16. */
const minOutputTokens = 16;

export function buildResponsesParams(model: Model, context: Context, options: StreamOptions): ResponseCreateParamsStreaming {
  const params: ResponseCreateParamsStreaming = { model: model.id, input: convertResponsesInput(model, context), stream: true, store: false };
  if (options.maxTokens) params.max_output_tokens = Math.max(minOutputTokens, options.maxTokens);
  if (options.temperature !== undefined) params.temperature = options.temperature;
  if (context.tools?.length) params.tools = convertResponsesTools(model, context.tools);
  if (options.sessionId) params.prompt_cache_key = options.sessionId.slice(0, 64);
  if (model.reasoning) {
    const effort = reasoningEffort(model, options.reasoning);
    const thinking = thinkingEnabled(model, options.reasoning);
    if (effort) params.reasoning = { effort: effort as ReasoningEffort, ...(thinking ? { summary: "auto" as const } : {}) };
    params.include = ["reasoning.encrypted_content"];
  }
  return params;
}

export function usageFromResponse(usage: ResponseUsage): Partial<Omit<Usage, "cost" | "totalTokens">> {
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  return {
    input: Math.max(0, (usage.input_tokens ?? 0) - cached),
    output: usage.output_tokens ?? 0,
    cacheRead: cached,
    ...(typeof reasoning === "number" ? { reasoning } : {}),
  };
}

type Kind = "thinking" | "text" | "toolCall";

/** Maps Responses events onto the builder; one content block per output item, keyed by output_index. */
class EventReader {
  private readonly items = new Map<number, { kind: Kind; streamed: string }>();
  completed = false;

  constructor(private readonly builder: MessageStreamBuilder) {}

  read(event: ResponseStreamEvent): void {
    const b = this.builder;
    switch (event.type) {
      case "response.created":
        b.setResponseId(event.response.id);
        return;
      case "response.output_item.added":
        this.open(event.output_index, event.item);
        return;
      case "response.reasoning_summary_part.added":
        // Summary parts are paragraphs.
        if (event.summary_index > 0) this.append(event.output_index, "thinking", "\n\n");
        return;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        this.append(event.output_index, "thinking", event.delta);
        return;
      case "response.output_text.delta":
      case "response.refusal.delta":
        this.append(event.output_index, "text", event.delta);
        return;
      case "response.function_call_arguments.delta":
        this.append(event.output_index, "toolCall", event.delta);
        return;
      case "response.function_call_arguments.done":
        this.completeArguments(event.output_index, event.arguments);
        return;
      case "response.output_item.done":
        this.close(event.output_index, event.item);
        return;
      case "response.completed":
      case "response.incomplete":
        this.complete(event.response);
        return;
      case "response.failed": {
        if (event.response.usage) b.usage(usageFromResponse(event.response.usage));
        b.message.rawStopReason = event.response.status;
        const error = event.response.error;
        throw new StreamReportedError(error?.message ?? "The response failed (no details)", error?.code);
      }
      case "error":
        throw new StreamReportedError(event.message, event.code ?? undefined);
    }
  }

  private open(index: number, item: ResponseOutputItem): void {
    const key = `item-${index}`;
    if (item.type === "reasoning") this.builder.thinking(key, "");
    else if (item.type === "message") this.builder.text(key, "");
    else if (item.type === "function_call") this.builder.toolCallStart(key, toolCallId(item), item.name);
    else return; // built-in tools (web search…) are not ours
    this.items.set(index, { kind: item.type === "reasoning" ? "thinking" : item.type === "message" ? "text" : "toolCall", streamed: "" });
    if (item.type === "function_call" && item.arguments) this.append(index, "toolCall", item.arguments);
  }

  private append(index: number, kind: Kind, delta: string): void {
    const item = this.items.get(index);
    if (!item || item.kind !== kind || !delta) return;
    item.streamed += delta;
    const key = `item-${index}`;
    if (kind === "thinking") this.builder.thinking(key, delta);
    else if (kind === "text") this.builder.text(key, delta);
    else this.builder.toolCallArguments(key, delta);
  }

  /** The full arguments: streams what the deltas missed, if anything. */
  private completeArguments(index: number, args: string): void {
    const streamed = this.items.get(index)?.streamed ?? "";
    if (args.startsWith(streamed)) this.append(index, "toolCall", args.slice(streamed.length));
  }

  private close(index: number, item: ResponseOutputItem): void {
    if (!this.items.has(index)) this.open(index, item);
    const known = this.items.get(index);
    if (!known) return;
    const key = `item-${index}`;
    if (item.type === "reasoning") {
      // Servers that send no deltas still send the finished item.
      const summary = item.summary.map((s) => s.text).join("\n\n") || (item.content ?? []).map((c) => c.text).join("\n\n");
      if (!known.streamed && summary) this.append(index, "thinking", summary);
      this.builder.sign(key, JSON.stringify(item));
    } else if (item.type === "message") {
      const text = item.content.map((c) => (c.type === "output_text" ? c.text : c.refusal)).join("");
      if (!known.streamed && text) this.append(index, "text", text);
      this.builder.sign(key, item.id);
    } else if (item.type === "function_call") {
      if (item.arguments) this.completeArguments(index, item.arguments);
      const parsed = item.arguments && item.arguments !== known.streamed ? parseObject(item.arguments) : undefined;
      this.builder.end(key, { id: toolCallId(item), name: item.name, ...(parsed ? { arguments: parsed } : {}) });
      return;
    }
    this.builder.end(key);
  }

  private complete(response: Response): void {
    this.completed = true;
    this.builder.setResponseId(response.id);
    if (response.usage) this.builder.usage(usageFromResponse(response.usage));
    const reason = response.incomplete_details?.reason;
    if (response.status === "incomplete") {
      if (reason === "max_output_tokens") {
        this.builder.finish("length", `incomplete.${reason}`);
        return;
      }
      this.builder.message.rawStopReason = `incomplete.${reason ?? "unknown"}`;
      throw new StreamReportedError(`The response is incomplete: ${reason ?? "no reason given"}`);
    }
    this.builder.finish("stop", response.status ?? "completed");
  }
}

/** `call_id|item id` (see ../openai/ids.ts): the item id is needed to replay the call after its reasoning. */
function toolCallId(item: { call_id: string; id?: string }): string {
  return item.id ? `${item.call_id}|${item.id}` : item.call_id;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function run(builder: MessageStreamBuilder, model: Model, context: Context, options: StreamOptions): Promise<void> {
  const client = createOpenAIClient(model, options);
  const params = buildResponsesParams(model, context, options);
  options.onPayload?.(params);
  const events = await client.responses.create(params, { signal: options.signal });
  const reader = new EventReader(builder);
  for await (const event of events) {
    reader.read(event);
    if (reader.completed) break;
  }
  // The SDK ends the iteration quietly when the signal aborts it.
  if (options.signal?.aborted && !reader.completed) {
    builder.fail(undefined, true);
    return;
  }
  if (!reader.completed) throw new Error("The stream ended before the response was completed: the connection was closed");
}

export const provider = defineProvider("openai-responses", run, { isAbort: isAbortError, describe: openAIErrorMessage }, classifyOpenAIError);

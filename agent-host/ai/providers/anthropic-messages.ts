/**
 * The Anthropic Messages API, streamed with the official SDK's client with only its `messages`
 * resource (`BaseAnthropic`): the full client holds ~120 other resources (beta, organization,
 * skills, tool runners), 1.4 MB of its provider bundle and ~4 MB of each session's memory once
 * loaded (issue 31); this one is 0.4 MB. Wire events map onto the
 * MessageStreamBuilder by content-block index; the stop reason arrives in message_delta and the
 * stream is finished when the SDK's event stream ends. Never throws: failures end the stream.
 */
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
import { fetchFor } from "../http/fetch";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { classifyAnthropicError, describeAnthropicError } from "../anthropic/errors";
import { buildAnthropicRequest } from "../anthropic/request";
import { MessageStreamBuilder } from "../message-stream-builder";
import { defineProvider } from "../provider";
import { runSdkStream } from "../sdk-stream";
import type { Context, Model, StreamOptions } from "../types";

export const provider = defineProvider(
  "anthropic-messages",
  run,
  { isAbort: (_error, signal) => signal?.aborted === true, describe: describeAnthropicError },
  classifyAnthropicError,
);

/**
 * The SDK would send a key as `Authorization: Bearer`, and without one it searches local
 * credential files. We send the key as `x-api-key` (what Anthropic and compatible endpoints
 * take) and use only the credentials we were given.
 */
class KeyHeaderClient extends BaseAnthropic {
  readonly messages = new Messages(this);
  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }
}

interface StreamState {
  stopReason?: string;
}

function run(builder: MessageStreamBuilder, model: Model, context: Context, options: StreamOptions): Promise<void> {
  return runSdkStream<RawMessageStreamEvent>(builder, model, options, /^(x-api-key|authorization)$/i, async (headers) => {
    const request = buildAnthropicRequest(model, context, options);
    options.onPayload?.(request.params);
    const client = new KeyHeaderClient({
      apiKey: null,
      authToken: null,
      baseURL: model.baseUrl,
      // Retries are the agent loop's decision (classifyError), not hidden inside one call.
      maxRetries: 0,
      fetch: fetchFor(options),
      defaultHeaders: options.apiKey ? { ...headers, "x-api-key": options.apiKey } : headers,
    });
    const events = await client.messages.create(request.params, { signal: options.signal, headers: request.headers });
    const state: StreamState = {};
    return { events, apply: (event) => applyEvent(builder, event, state), finish: () => finish(builder, state.stopReason) };
  });
}

function applyEvent(builder: MessageStreamBuilder, event: RawMessageStreamEvent, state: StreamState): void {
  switch (event.type) {
    case "message_start": {
      const { message } = event;
      builder.setResponseId(message.id);
      if (message.model && message.model !== builder.message.model) builder.message.responseModel = message.model;
      builder.usage({
        input: message.usage.input_tokens ?? 0,
        output: message.usage.output_tokens ?? 0,
        cacheRead: message.usage.cache_read_input_tokens ?? 0,
        cacheWrite: message.usage.cache_creation_input_tokens ?? 0,
      });
      break;
    }
    case "content_block_start": {
      const key = String(event.index);
      const block = event.content_block;
      if (block.type === "text") builder.text(key, block.text);
      else if (block.type === "thinking") builder.thinking(key, block.thinking, block.signature || undefined);
      else if (block.type === "redacted_thinking") {
        builder.thinking(key, "");
        builder.sign(key, block.data, true);
      } else if (block.type === "tool_use") {
        builder.toolCallStart(key, block.id, block.name);
        const input = block.input as Record<string, unknown> | undefined;
        // Proxies that do not stream arguments send them whole here.
        if (input && Object.keys(input).length) builder.toolCallArguments(key, JSON.stringify(input));
      }
      break;
    }
    case "content_block_delta": {
      const key = String(event.index);
      const { delta } = event;
      if (delta.type === "text_delta") builder.text(key, delta.text);
      else if (delta.type === "thinking_delta") builder.thinking(key, delta.thinking);
      else if (delta.type === "signature_delta") builder.thinking(key, "", delta.signature);
      else if (delta.type === "input_json_delta") builder.toolCallArguments(key, delta.partial_json);
      break;
    }
    case "content_block_stop":
      builder.end(String(event.index));
      break;
    case "message_delta": {
      if (event.delta.stop_reason) state.stopReason = event.delta.stop_reason;
      const { usage } = event;
      const update: Parameters<MessageStreamBuilder["usage"]>[0] = { output: usage.output_tokens ?? builder.message.usage.output };
      if (usage.input_tokens != null) update.input = usage.input_tokens;
      if (usage.cache_read_input_tokens != null) update.cacheRead = usage.cache_read_input_tokens;
      if (usage.cache_creation_input_tokens != null) update.cacheWrite = usage.cache_creation_input_tokens;
      builder.usage(update);
      break;
    }
    case "message_stop":
      break;
  }
}

/** end_turn/stop_sequence/pause_turn → stop, max_tokens → length, tool_use → toolUse, refusal → error. */
function finish(builder: MessageStreamBuilder, stopReason: string | undefined): void {
  if (!stopReason) return void builder.fail(new Error("Anthropic stream ended before a stop reason (message_delta)"), false);
  builder.message.rawStopReason = stopReason;
  switch (stopReason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      builder.finish("length", stopReason);
      break;
    case "tool_use":
      builder.finish("toolUse", stopReason);
      break;
    case "refusal":
      builder.fail(new Error("The model refused to answer (stop_reason: refusal)"), false);
      break;
    default:
      builder.finish("stop", stopReason);
  }
}

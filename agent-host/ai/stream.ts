import { MessageStreamBuilder } from "./message-stream-builder";
import { fauxProvider } from "./faux";
import type { LlmProvider } from "./provider";
import { loadProvider } from "./providers/load";
import type { AssistantMessage, Context, Model, StreamOptions } from "./types";
import type { AssistantMessageEventStream } from "./event-stream";

export function providerFor(model: Model): LlmProvider {
  return model.api === "faux" ? fauxProvider : loadProvider(model.api);
}

/** Streams one assistant reply. Never throws: failures end the stream with stopReason "error". */
export function stream(model: Model, context: Context, options: StreamOptions = {}): AssistantMessageEventStream {
  try {
    return providerFor(model).stream(model, context, options);
  } catch (error) {
    const builder = new MessageStreamBuilder(model);
    builder.start();
    builder.fail(error, false);
    return builder.stream;
  }
}

export function complete(model: Model, context: Context, options: StreamOptions = {}): Promise<AssistantMessage> {
  return stream(model, context, options).result();
}

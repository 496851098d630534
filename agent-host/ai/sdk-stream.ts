import type { MessageStreamBuilder } from "./message-stream-builder";
import type { Model, StreamOptions } from "./types";

/** A provider's SDK stream, opened: its events, how each maps onto the builder, and how a stream that ran out ends. */
export interface OpenedStream<Event> {
  events: AsyncIterable<Event>;
  apply(event: Event): void;
  finish(): void;
}

/**
 * The frame of a provider's run over an SDK's event stream, written once: it ends the moment the
 * caller aborts (the SDK then closes the connection on its own time), refuses a request with
 * neither a key nor a header matching `keyHeader`, feeds the events to the builder until it
 * finishes, and ends a stream the abort cut short as aborted. `open` gets the request's headers
 * (the model's, then the call's); what it throws ends the stream as an error (defineProvider).
 */
export async function runSdkStream<Event>(
  builder: MessageStreamBuilder,
  model: Model,
  options: StreamOptions,
  keyHeader: RegExp,
  open: (headers: Record<string, string>) => Promise<OpenedStream<Event>>,
): Promise<void> {
  const { signal } = options;
  if (signal?.aborted) return void builder.fail(undefined, true);
  const onAbort = () => builder.fail(undefined, true);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const headers = { ...model.headers, ...options.headers };
    if (!options.apiKey && !Object.keys(headers).some((h) => keyHeader.test(h))) {
      throw new Error(`No API key for provider "${model.provider}"`);
    }
    const stream = await open(headers);
    for await (const event of stream.events) {
      if (builder.isFinished) break;
      stream.apply(event);
    }
    if (builder.isFinished) return;
    if (signal?.aborted) return void builder.fail(undefined, true);
    stream.finish();
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

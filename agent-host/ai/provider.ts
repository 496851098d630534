import type { AssistantMessageEventStream } from "./event-stream";
import { MessageStreamBuilder } from "./message-stream-builder";
import type { Api, Context, ErrorClassification, Model, StreamOptions } from "./types";

/**
 * One wire API. Once called, `stream` never throws: a failure is the stream's last event
 * (stopReason "error" with a readable errorMessage, or "aborted"), so the agent loop has one path.
 */
export interface LlmProvider {
  api: Api;
  stream(model: Model, context: Context, options: StreamOptions): AssistantMessageEventStream;
  /** Whether a failed request may succeed if retried (429, 5xx, overloaded, network). */
  classifyError?(error: unknown): ErrorClassification;
}

/** A provider's request loop: maps the wire onto the builder; may throw. */
export type ProviderRun = (builder: MessageStreamBuilder, model: Model, context: Context, options: StreamOptions) => Promise<void>;

/**
 * The contract every provider keeps, written once: the stream starts at once, the request loop
 * runs, and anything it throws becomes the stream's last event — aborted, or an error with the
 * message `describe` gives.
 */
export function defineProvider(
  api: Api,
  run: ProviderRun,
  failure: { isAbort(error: unknown, signal: AbortSignal | undefined): boolean; describe(error: unknown): string },
  classifyError?: (error: unknown) => ErrorClassification,
): LlmProvider {
  return {
    api,
    stream(model, context, options) {
      const builder = new MessageStreamBuilder(model);
      builder.start();
      run(builder, model, context, options).catch((error: unknown) => {
        const aborted = failure.isAbort(error, options.signal);
        builder.fail(aborted ? undefined : new Error(redactCredentials(failure.describe(error), options)), aborted);
      });
      return builder.stream;
    },
    ...(classifyError ? { classifyError } : {}),
  };
}

const credentialHeader = /authorization|api-?key|token|secret/i;

/** A provider's error text may echo the request's key (some echo the Authorization header): it is masked before it is kept anywhere. */
export function redactCredentials(text: string, options: Pick<StreamOptions, "apiKey" | "headers">): string {
  const secrets = [options.apiKey, ...Object.entries(options.headers ?? {}).filter(([name]) => credentialHeader.test(name)).map(([, value]) => value.replace(/^(Bearer|Basic)\s+/i, ""))];
  return secrets.filter((s): s is string => typeof s === "string" && s.length >= 8).reduce((masked, secret) => masked.split(secret).join("***"), text);
}

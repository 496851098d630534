import type { AssistantMessageEventStream } from "./event-stream";
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

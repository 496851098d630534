import { APIConnectionError, APIConnectionTimeoutError } from "openai";
import { classifyError, describeProviderError } from "../errors";
import type { ErrorClassification } from "../types";

/** Raised for an error reported inside a stream (a chunk with `error`, a `response.failed` event). */
export class StreamReportedError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "StreamReportedError";
  }
}

/**
 * A readable message for a failed request: HTTP status with the server's own message
 * ("401 Incorrect API key provided"), or what happened to the connection.
 */
export function openAIErrorMessage(error: unknown): string {
  if (error instanceof APIConnectionTimeoutError) return "Request timed out";
  if (error instanceof APIConnectionError) return `Connection error: ${causes(error.cause) || error.message}`;
  // Node's fetch when the server drops the connection while the body streams.
  if (error instanceof TypeError && /terminated|fetch failed|socket/i.test(error.message)) {
    return `Connection lost while streaming (${[error.message, causes(error.cause)].filter(Boolean).join(": ")})`;
  }
  const message = describeProviderError(error);
  // An error inside the stream has no HTTP status; its code ("server_error") says what kind it is.
  const code = (error as { status?: unknown; code?: unknown } | null)?.code;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof code === "string" && code && status === undefined && !message.includes(code) ? `${code}: ${message}` : message;
}

/** Error codes OpenAI-style servers put inside a stream for failures worth retrying. */
const transientStreamCodes = /server_error|internal_error|rate_limit|overloaded|service_unavailable|server_is_overloaded|slow_down/i;

/**
 * Whether a failure may go away on retry. Takes the SDK's error, a failed assistant message
 * (its errorMessage starts with the HTTP status when there was one) or that message's text.
 */
export function classifyOpenAIError(error: unknown): ErrorClassification {
  const isMessage = !!error && typeof error === "object" && "role" in error;
  const text = typeof error === "string" ? error : isMessage ? String((error as { errorMessage?: unknown }).errorMessage ?? "") : undefined;
  if (text === undefined) {
    const base = classifyError(error);
    if (base.status !== undefined || base.transient) return base;
    const code = (error as { code?: unknown } | null)?.code;
    return { ...base, transient: transientStreamCodes.test(`${typeof code === "string" ? code : ""} ${openAIErrorMessage(error)}`) };
  }
  const status = /^(\d{3})\b/.exec(text);
  if (status) return classifyError({ status: Number(status[1]), message: text });
  const base = classifyError(text);
  return base.transient ? base : { ...base, transient: transientStreamCodes.test(text) };
}

/** The messages (or codes) of an error's causes: "fetch failed: connect ECONNREFUSED 127.0.0.1:1". */
function causes(cause: unknown, depth = 0): string {
  if (!cause || typeof cause !== "object" || depth > 3) return "";
  const c = cause as { message?: unknown; code?: unknown; cause?: unknown };
  const own = typeof c.message === "string" && c.message ? c.message : typeof c.code === "string" ? c.code : "";
  return [own, causes(c.cause, depth + 1)].filter(Boolean).join(": ");
}

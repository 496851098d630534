/**
 * Anthropic errors in words a person can act on, and whether retrying may help. The SDK's own
 * message is a JSON dump of the body; we say "529 overloaded_error: Overloaded" instead.
 */
import { classifyError } from "../errors";
import { errorText } from "../message-stream-builder";
import type { ErrorClassification } from "../types";

/** Error types Anthropic uses for conditions that pass (https://docs.anthropic.com/en/api/errors). */
const transientTypes = new Set(["overloaded_error", "rate_limit_error", "api_error", "timeout_error"]);
const permanentTypes = new Set([
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "request_too_large",
  "billing_error",
]);

/** The network failures our messages name (from the fetch error's cause). */
const networkFailure = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR_[A-Z_]+)\b/;

interface AnthropicErrorShape {
  name?: unknown;
  status?: unknown;
  type?: unknown;
  apiMessage?: unknown;
  message?: unknown;
  error?: { error?: { type?: unknown; message?: unknown } };
  cause?: unknown;
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);

export function describeAnthropicError(error: unknown): string {
  if (!error || typeof error !== "object") return errorText(error);
  const e = error as AnthropicErrorShape;
  const status = typeof e.status === "number" ? e.status : undefined;
  const type = str(e.type) ?? str(e.error?.error?.type);
  const apiMessage = str(e.apiMessage) ?? str(e.error?.error?.message);
  if (type || apiMessage) {
    return [status, type && apiMessage ? `${type}:` : type, apiMessage].filter((part) => part !== undefined).join(" ");
  }
  const message = errorText(error);
  const cause = causeText(e.cause);
  return cause && !message.includes(cause) ? `${message.replace(/\.$/, "")}: ${cause}` : message;
}

function causeText(cause: unknown): string | undefined {
  let current = cause as { message?: unknown; cause?: unknown } | undefined;
  let text: string | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    text = str(current.message) ?? text;
    current = current.cause as typeof current;
  }
  return text;
}

/** Works on SDK errors, on our `errorMessage` strings and on failed messages (`{ errorMessage }`). */
export function classifyAnthropicError(error: unknown): ErrorClassification {
  const e = (error ?? {}) as AnthropicErrorShape & { errorMessage?: unknown };
  const text = typeof error === "string" ? error : str(e.errorMessage);
  if (text !== undefined) return classifyText(text);
  const name = str(e.name);
  if (name === "APIConnectionError" || name === "APIConnectionTimeoutError") return { transient: true };
  const base = classifyError(error);
  if (base.status !== undefined) return base;
  const type = str(e.type) ?? str(e.error?.error?.type);
  if (type && transientTypes.has(type)) return { ...base, transient: true };
  if (type && permanentTypes.has(type)) return { ...base, transient: false };
  return base;
}

function classifyText(text: string): ErrorClassification {
  const status = /^(\d{3})\b/.exec(text)?.[1];
  if (status) return classifyError({ status: Number(status), message: text });
  const type = /\b([a-z_]+_error)\b/.exec(text)?.[1];
  if (type && transientTypes.has(type)) return { transient: true };
  if (type && permanentTypes.has(type)) return { transient: false };
  if (networkFailure.test(text)) return { transient: true };
  return classifyError(text);
}

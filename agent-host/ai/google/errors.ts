/**
 * Gemini errors in plain words. The SDK's ApiError carries the HTTP status and, as its message,
 * the JSON error body (or "got status: X. {json}" for an error mid-stream); we say
 * "503 UNAVAILABLE: The model is overloaded." instead, and tell whether retrying may help.
 */
import { classifyError } from "../errors";
import { errorText } from "../message-stream-builder";
import type { ErrorClassification } from "../types";

/** Google's canonical status names for conditions that pass. */
const transientStatuses = new Set(["RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "ABORTED"]);

/** The network failures our messages name (from the fetch error's cause). */
const networkFailure = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR_[A-Z_]+)\b/;

interface GoogleErrorBody {
  code?: unknown;
  message?: unknown;
  status?: unknown;
}

/** The `error` object inside a JSON text (possibly nested: a message that is itself a JSON body). */
function errorBody(text: string): GoogleErrorBody | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(text.slice(start)) as { error?: GoogleErrorBody };
    const body = parsed.error;
    if (!body || typeof body !== "object") return undefined;
    if (typeof body.message === "string" && body.message.trim().startsWith("{")) return errorBody(body.message) ?? body;
    return body;
  } catch {
    return undefined;
  }
}

export function describeGoogleError(error: unknown): string {
  const e = (error ?? {}) as { name?: unknown; status?: unknown; message?: unknown; cause?: { message?: unknown; code?: unknown } };
  const message = errorText(error);
  const body = errorBody(message);
  if (body) {
    const status = typeof e.status === "number" ? e.status : typeof body.code === "number" ? body.code : undefined;
    const name = typeof body.status === "string" && body.status ? body.status : undefined;
    const text = typeof body.message === "string" ? body.message.trim() : message;
    return [status, name ? `${name}:` : undefined, text].filter((part) => part !== undefined).join(" ");
  }
  const cause = typeof e.cause?.message === "string" ? e.cause.message : undefined;
  return cause && !message.includes(cause) ? `${message}: ${cause}` : message;
}

/** Works on SDK errors, on our `errorMessage` strings and on failed messages (`{ errorMessage }`). */
export function classifyGoogleError(error: unknown): ErrorClassification {
  const e = (error ?? {}) as { errorMessage?: unknown };
  const text = typeof error === "string" ? error : typeof e.errorMessage === "string" ? e.errorMessage : undefined;
  if (text === undefined) return classifyError(error);
  const status = /^(\d{3})\b/.exec(text)?.[1];
  if (status) return classifyError({ status: Number(status), message: text });
  if ([...transientStatuses].some((name) => text.includes(name)) || networkFailure.test(text)) return { transient: true };
  return classifyError(text);
}

import type { ErrorClassification } from "./types";

const transientStatus = new Set([408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529]);
const transientCodes = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);
const transientText = /overloaded|rate.?limit|too many requests|temporarily unavailable|try again|timeout|timed out|socket hang up|network|connection (reset|error|closed)|terminated/i;

/**
 * Whether a failed request may succeed if retried. Works on SDK errors (status, headers, code),
 * fetch errors (cause.code) and plain messages.
 */
export function classifyError(error: unknown): ErrorClassification {
  const e = (error ?? {}) as { status?: unknown; code?: unknown; cause?: { code?: unknown }; headers?: unknown; message?: unknown };
  const status = typeof e.status === "number" ? e.status : undefined;
  const retryAfterMs = retryAfter(e.headers);
  if (status !== undefined) return { transient: transientStatus.has(status) || (status >= 500 && status < 600), status, retryAfterMs };
  const code = typeof e.code === "string" ? e.code : typeof e.cause?.code === "string" ? e.cause.code : undefined;
  if (code && transientCodes.has(code)) return { transient: true };
  const message = typeof e.message === "string" ? e.message : typeof error === "string" ? error : "";
  return { transient: transientText.test(message), retryAfterMs };
}

function retryAfter(headers: unknown): number | undefined {
  const get = (name: string): string | undefined => {
    if (!headers) return undefined;
    if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === "string" ? value : undefined;
  };
  const ms = get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const seconds = get("retry-after");
  if (!seconds) return undefined;
  if (Number.isFinite(Number(seconds))) return Number(seconds) * 1000;
  const date = Date.parse(seconds);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** An error message that mentions the HTTP status and the provider's own message. */
export function describeProviderError(error: unknown): string {
  const e = (error ?? {}) as { status?: unknown; message?: unknown; error?: { message?: unknown } };
  const message = typeof e.error?.message === "string" ? e.error.message : typeof e.message === "string" ? e.message : String(error);
  return typeof e.status === "number" && !message.includes(String(e.status)) ? `${e.status} ${message}` : message;
}

/** For an assistant message's errorMessage: rate limits, overload, 5xx and network failures are worth a retry. */
export function isTransientErrorText(text: string): boolean {
  if (/\b(400|401|403|404|422)\b/.test(text) && !/\b(429|5\d\d)\b/.test(text)) return false;
  return /\b(408|429|5\d\d)\b/.test(text) || transientText.test(text);
}

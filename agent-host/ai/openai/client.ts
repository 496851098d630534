import OpenAI from "openai";
import { fetchFor } from "../http/fetch";
import type { Model, StreamOptions, Tool } from "../types";

const loopback = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i;

/**
 * An SDK client for one request. Everything comes from the model and the options, never from
 * OPENAI_* environment variables (they would leak an OpenAI key or org to other servers). The SDK
 * does not retry: the agent decides with classifyError. Local servers need no key.
 */
export function createOpenAIClient(model: Model, options: StreamOptions): OpenAI {
  const headers = { ...model.headers, ...options.headers };
  const hasAuthHeader = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
  let apiKey = options.apiKey;
  if (!apiKey && (hasAuthHeader || loopback.test(model.baseUrl))) apiKey = "none";
  if (!apiKey) throw new Error(`No API key for provider "${model.provider}"`);
  return new OpenAI({
    apiKey,
    baseURL: model.baseUrl,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    defaultHeaders: headers,
    maxRetries: 0,
    fetch: fetchFor(options),
    // Explicit, so OPENAI_LOG=debug cannot make the SDK write to stdout (the RPC channel).
    logLevel: "warn",
  });
}

/** A tool's TypeBox schema as plain JSON Schema (TypeBox's symbol keys dropped). */
export function toolParameters(tool: Tool): Record<string, unknown> {
  return JSON.parse(JSON.stringify(tool.parameters)) as Record<string, unknown>;
}

export function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === "AbortError" || name === "APIUserAbortError";
}

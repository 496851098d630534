import type { AssistantMessage } from "../../ai/types";

/**
 * How providers say "the request does not fit the context window". Each entry names the provider
 * whose wording it matches; an example message is in overflow.test.ts.
 */
const OVERFLOW_TEXTS: readonly RegExp[] = [
  /prompt (?:is )?too long/i, // Anthropic (token count), z.ai, Ollama
  /request_too_large/i, // Anthropic, request over the byte limit (413)
  /exceeds the context window/i, // OpenAI Responses / Completions
  /maximum context length/i, // OpenAI chat ("This model's maximum context length is …"), LiteLLM, OpenRouter, Mistral, vLLM
  /context[_ ]length[_ ]exceeded/i, // OpenAI error code, generic
  /input token count.*exceeds the maximum/i, // Google Gemini
  /input is too long for requested model/i, // Amazon Bedrock
  /maximum prompt length is \d+/i, // xAI
  /reduce the length of the messages/i, // Groq
  /maximum allowed input length/i, // OpenRouter (Poolside)
  /longer than the model'?s context length/i, // Together AI
  /exceeds the limit of \d+/i, // GitHub Copilot
  /exceeds the available context size/i, // llama.cpp
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi
  /configured context size is [\d,]+ tokens?/i, // DS4
  /model_context_window_exceeded/i, // z.ai finish reason surfaced as an error
  /range of input length should be/i, // DashScope / Qwen
  /too many tokens/i, // generic
  /token limit exceeded/i, // generic
];

/** Failures that can mention tokens or limits without being an overflow (rate limits, throttling). */
const NOT_OVERFLOW: readonly RegExp[] = [/rate.?limit/i, /too many requests/i, /^(?:Throttling error|Service unavailable):/i];

/** Cerebras answers an oversized request with a bare 400/413. */
const BODYLESS_4XX = /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i;

/** Whether an error text reads as a context-length error. */
export function isOverflowErrorText(text: string, provider?: string): boolean {
  if (!text || NOT_OVERFLOW.some((p) => p.test(text))) return false;
  return OVERFLOW_TEXTS.some((p) => p.test(text)) || (provider === "cerebras" && BODYLESS_4XX.test(text));
}

/**
 * Whether a reply failed because the context did not fit: a provider's context-length error, or,
 * given the context window, a reply that silently reports more input than the window holds, or a
 * length stop with no output because the (truncated) input filled the window.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  if (message.stopReason === "error" && message.errorMessage && isOverflowErrorText(message.errorMessage, message.provider)) return true;
  if (!contextWindow || contextWindow <= 0) return false;
  const input = message.usage.input + message.usage.cacheRead;
  if (message.stopReason === "stop" && input > contextWindow) return true;
  return message.stopReason === "length" && message.usage.output === 0 && input >= contextWindow * 0.99;
}

/** A length stop below the output limit that was asked for: the context squeezed the reply, so compacting may help. */
export function isRecoverableLength(message: AssistantMessage, requestedMaxTokens: number): boolean {
  return message.stopReason === "length" && requestedMaxTokens > 0 && message.usage.output < requestedMaxTokens;
}

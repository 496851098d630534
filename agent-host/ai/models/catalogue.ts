/**
 * Built-in models: a current subset of pi-ai 0.87.1's generated catalogue (data of 2026-09-22),
 * figures as published there. Prices are $ per million tokens: usd(input, output, cacheRead,
 * cacheWrite). Plain data, so importing it costs next to nothing at start-up.
 *
 * Deliberate differences from pi's catalogue:
 * - `mistral` uses Mistral's OpenAI-compatible chat completions (https://api.mistral.ai/v1) instead
 *   of pi's `mistral-conversations` API, with MISTRAL_COMPAT below (not from pi's data).
 * - Long-context price tiers (pi's `cost.tiers`) are not modelled; the affected rows say so.
 * - `compat` keeps only the flags our providers may act on; pi's `promptCache` and `inputLimits`
 *   are left out.
 */
import type { Api, Model } from "../types";

type Row = Omit<Model, "provider" | "api" | "baseUrl">;

const TEXT: Model["input"] = ["text"];
const TEXT_IMAGE: Model["input"] = ["text", "image"];

function usd(input: number, output: number, cacheRead: number, cacheWrite: number): Model["cost"] {
  return { input, output, cacheRead, cacheWrite };
}

function group(provider: string, api: Api, baseUrl: string, rows: Row[], compat?: Model["compat"]): Model[] {
  return rows.map((row) => {
    const model: Model = { ...row, provider, api, baseUrl };
    if (compat) model.compat = { ...compat, ...row.compat };
    return deepFreeze(model);
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Mistral's chat completions: no `store`, no developer role, `max_tokens`, no reasoning_effort. */
const MISTRAL_COMPAT: Model["compat"] = {
  supportsStore: false,
  supportsDeveloperRole: false,
  supportsReasoningEffort: false,
  maxTokensField: "max_tokens",
};

const anthropic = group("anthropic", "anthropic-messages", "https://api.anthropic.com", [
  { id: "claude-fable-5-1", name: "Claude Fable 5.1", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(10, 50, 0.25, 12.5), thinkingLevelMap: { off: null, xhigh: "xhigh", max: "max" }, compat: { forceAdaptiveThinking: true } },
  { id: "claude-fable-5", name: "Claude Fable 5", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(10, 50, 1, 12.5), thinkingLevelMap: { off: null, xhigh: "xhigh", max: "max" }, compat: { forceAdaptiveThinking: true } },
  { id: "claude-opus-5-5", name: "Claude Opus 5.5", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(4, 20, 0.2, 5), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { forceAdaptiveThinking: true, supportsTemperature: false } },
  { id: "claude-opus-5", name: "Claude Opus 5", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(5, 25, 0.5, 6.25), thinkingLevelMap: { off: null, xhigh: "xhigh", max: "max" }, compat: { forceAdaptiveThinking: true, supportsTemperature: false } },
  { id: "claude-opus-4-8", name: "Claude Opus 4.8", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(5, 25, 0.5, 6.25), thinkingLevelMap: { xhigh: "xhigh", max: "max" }, compat: { forceAdaptiveThinking: true, supportsTemperature: false } },
  { id: "claude-opus-4-7", name: "Claude Opus 4.7", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(5, 25, 0.5, 6.25), thinkingLevelMap: { xhigh: "xhigh", max: "max" }, compat: { forceAdaptiveThinking: true, supportsTemperature: false } },
  { id: "claude-opus-4-6", name: "Claude Opus 4.6", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(5, 25, 0.5, 6.25), thinkingLevelMap: { max: "max" }, compat: { forceAdaptiveThinking: true } },
  { id: "claude-sonnet-5", name: "Claude Sonnet 5", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(2, 10, 0.2, 2.5), thinkingLevelMap: { xhigh: "xhigh", max: "max" }, compat: { forceAdaptiveThinking: true } },
  { id: "claude-sonnet-4-6", name: "Claude Sonnet 4.6", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 128_000, cost: usd(3, 15, 0.3, 3.75), thinkingLevelMap: { max: "max" }, compat: { forceAdaptiveThinking: true } },
  { id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5 (latest)", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 64_000, cost: usd(3, 15, 0.3, 3.75) },
  { id: "claude-haiku-4-5", name: "Claude Haiku 4.5 (latest)", reasoning: true, input: TEXT_IMAGE, contextWindow: 200_000, maxTokens: 64_000, cost: usd(1, 5, 0.1, 1.25) },
]);

const openai = group("openai", "openai-responses", "https://api.openai.com/v1", [
  { id: "gpt-6-astra", name: "GPT-6 Astra", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(10, 50, 1, 12.5), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $20/75 (tier not modelled)
  { id: "gpt-6-sol", name: "GPT-6 Sol", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(2, 10, 0.2, 2.5), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $4/15 (tier not modelled)
  { id: "gpt-6-luna", name: "GPT-6 Luna", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(0.1, 0.5, 0.01, 0.125), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $0.2/0.75 (tier not modelled)
  { id: "gpt-5.6-sol", name: "GPT-5.6 Sol", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(4, 20, 0.4, 5), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $8/30 (tier not modelled)
  { id: "gpt-5.6-terra", name: "GPT-5.6 Terra", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(2, 12, 0.2, 2.5), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $4/18 (tier not modelled)
  { id: "gpt-5.6-luna", name: "GPT-5.6 Luna", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(0.2, 1.2, 0.02, 0.25), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $0.4/1.8 (tier not modelled)
  { id: "gpt-5.5", name: "GPT-5.5", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(5, 30, 0.5, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $10/45 (tier not modelled)
  { id: "gpt-5.4", name: "GPT-5.4", reasoning: true, input: TEXT_IMAGE, contextWindow: 272_000, maxTokens: 128_000, cost: usd(2.5, 15, 0.25, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsStrictMode: true } }, // above 272_000 input tokens: $5/22.5 (tier not modelled)
  { id: "gpt-5.4-mini", name: "GPT-5.4 mini", reasoning: true, input: TEXT_IMAGE, contextWindow: 400_000, maxTokens: 128_000, cost: usd(0.75, 4.5, 0.075, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsStrictMode: true } },
  { id: "gpt-5.4-nano", name: "GPT-5.4 nano", reasoning: true, input: TEXT_IMAGE, contextWindow: 400_000, maxTokens: 128_000, cost: usd(0.2, 1.25, 0.02, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsStrictMode: true } },
  { id: "gpt-5.3-codex", name: "GPT-5.3 Codex", reasoning: true, input: TEXT_IMAGE, contextWindow: 400_000, maxTokens: 128_000, cost: usd(1.75, 14, 0.175, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsStrictMode: true } },
  { id: "gpt-5-mini", name: "GPT-5 Mini", reasoning: true, input: TEXT_IMAGE, contextWindow: 400_000, maxTokens: 128_000, cost: usd(0.25, 2, 0.025, 0), thinkingLevelMap: { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsStrictMode: true } },
  { id: "gpt-4.1", name: "GPT-4.1", reasoning: false, input: TEXT_IMAGE, contextWindow: 1_047_576, maxTokens: 32_768, cost: usd(2, 8, 0.5, 0), compat: { supportsStrictMode: true } },
  { id: "gpt-4o", name: "GPT-4o", reasoning: false, input: TEXT_IMAGE, contextWindow: 128_000, maxTokens: 16_384, cost: usd(2.5, 10, 1.25, 0), compat: { supportsStrictMode: true } },
]);

const google = group("google", "google-generative-ai", "https://generativelanguage.googleapis.com/v1beta", [
  { id: "gemini-3.8-flash", name: "Gemini 3.8 Flash", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(0.75, 3.75, 0.075, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null } },
  { id: "gemini-3.7-flash", name: "Gemini 3.7 Flash", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(0.75, 3.75, 0.075, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null } },
  { id: "gemini-3.6-flash", name: "Gemini 3.6 Flash", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(0.75, 3.75, 0.075, 0), thinkingLevelMap: { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null } },
  { id: "gemini-3.5-flash", name: "Gemini 3.5 Flash", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(1.5, 9, 0.15, 0), thinkingLevelMap: { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null } },
  { id: "gemini-3.5-flash-lite", name: "Gemini 3.5 Flash Lite", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(0.3, 2.5, 0.03, 0), thinkingLevelMap: { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null } },
  { id: "gemini-3.1-pro-preview", name: "Gemini 3.1 Pro Preview", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(2, 12, 0.2, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null } },
  { id: "gemini-3-flash-preview", name: "Gemini 3 Flash Preview", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(0.5, 3, 0.05, 0), thinkingLevelMap: { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null } },
  { id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(1.25, 10, 0.125, 0) },
  { id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(0.3, 2.5, 0.03, 0) },
]);

const xai = group("xai", "openai-responses", "https://api.x.ai/v1", [
  { id: "grok-4.7", name: "Grok 4.7", reasoning: true, input: TEXT_IMAGE, contextWindow: 500_000, maxTokens: 500_000, cost: usd(2, 6, 0.5, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsLongCacheRetention: false } }, // above 200_000 input tokens: $4/12 (tier not modelled)
  { id: "grok-4.6", name: "Grok 4.6", reasoning: true, input: TEXT_IMAGE, contextWindow: 500_000, maxTokens: 500_000, cost: usd(2, 6, 0.5, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsLongCacheRetention: false } }, // above 200_000 input tokens: $4/12 (tier not modelled)
  { id: "grok-4.3", name: "Grok 4.3", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_000_000, maxTokens: 30_000, cost: usd(1.25, 2.5, 0.2, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsLongCacheRetention: false } }, // above 200_000 input tokens: $2.5/5 (tier not modelled)
]);

const groq = group("groq", "openai-completions", "https://api.groq.com/openai/v1", [
  { id: "openai/gpt-oss-120b", name: "GPT OSS 120B", reasoning: true, input: TEXT, contextWindow: 131_072, maxTokens: 65_536, cost: usd(0.15, 0.6, 0.075, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsStrictMode: true } },
  { id: "openai/gpt-oss-20b", name: "GPT OSS 20B", reasoning: true, input: TEXT, contextWindow: 131_072, maxTokens: 65_536, cost: usd(0.075, 0.3, 0.0375, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsStrictMode: true } },
  { id: "qwen/qwen3.8-27b", name: "Qwen3.8 27B", reasoning: true, input: TEXT_IMAGE, contextWindow: 131_042, maxTokens: 16_384, cost: usd(0.8, 4, 0, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsStrictMode: true } },
  { id: "llama-3.3-70b-versatile", name: "Llama 3.3 70B", reasoning: false, input: TEXT, contextWindow: 131_072, maxTokens: 32_768, cost: usd(0.59, 0.79, 0, 0), compat: { supportsStrictMode: true } },
]);

const cerebras = group("cerebras", "openai-completions", "https://api.cerebras.ai/v1", [
  { id: "gpt-oss-120b", name: "GPT OSS 120B", reasoning: true, input: TEXT, contextWindow: 131_072, maxTokens: 40_960, cost: usd(0.35, 0.75, 0, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsStore: false, supportsDeveloperRole: false } },
  { id: "qwen-3.8-27b", name: "Qwen3.8 27B", reasoning: true, input: TEXT_IMAGE, contextWindow: 65_536, maxTokens: 32_768, cost: usd(0.99, 1.49, 0, 0), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsStore: false, supportsDeveloperRole: false } },
]);

const mistral = group("mistral", "openai-completions", "https://api.mistral.ai/v1", [
  { id: "devstral-medium-latest", name: "Devstral 2 (latest)", reasoning: false, input: TEXT, contextWindow: 262_144, maxTokens: 262_144, cost: usd(0.4, 2, 0.04, 0) },
  { id: "codestral-latest", name: "Codestral (latest)", reasoning: false, input: TEXT, contextWindow: 256_000, maxTokens: 4096, cost: usd(0.3, 0.9, 0.03, 0) },
  { id: "mistral-large-latest", name: "Mistral Large (latest)", reasoning: false, input: TEXT_IMAGE, contextWindow: 262_144, maxTokens: 262_144, cost: usd(0.5, 1.5, 0.05, 0) },
  { id: "mistral-medium-latest", name: "Mistral Medium (latest)", reasoning: true, input: TEXT_IMAGE, contextWindow: 262_144, maxTokens: 262_144, cost: usd(1.5, 7.5, 0.15, 0) },
  { id: "mistral-small-latest", name: "Mistral Small (latest)", reasoning: true, input: TEXT_IMAGE, contextWindow: 256_000, maxTokens: 256_000, cost: usd(0.15, 0.6, 0.015, 0) },
], MISTRAL_COMPAT);

const openrouter = group("openrouter", "openai-completions", "https://openrouter.ai/api/v1", [
  { id: "moonshotai/kimi-k2.6", name: "MoonshotAI: Kimi K2.6", reasoning: true, input: TEXT_IMAGE, contextWindow: 262_144, maxTokens: 235_929, cost: usd(0.95, 4, 0.16, 0), compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true, requiresReasoningContentOnAssistantMessages: true } },
  { id: "openai/gpt-6-sol", name: "OpenAI: GPT-6 Sol", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_050_000, maxTokens: 128_000, cost: usd(2, 10, 0.2, 2.5), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { thinkingFormat: "openrouter", supportsStrictMode: true } },
  { id: "openai/gpt-5.6-luna", name: "OpenAI: GPT-5.6 Luna", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_050_000, maxTokens: 128_000, cost: usd(0.2, 1.2, 0.02, 0.25), thinkingLevelMap: { off: "none", minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" }, compat: { thinkingFormat: "openrouter", supportsStrictMode: true } },
  { id: "google/gemini-3.1-pro-preview", name: "Google: Gemini 3.1 Pro Preview", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(2, 12, 0.2, 0.375), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true } },
  { id: "google/gemini-3.8-flash", name: "Google: Gemini 3.8 Flash", reasoning: true, input: TEXT_IMAGE, contextWindow: 1_048_576, maxTokens: 65_536, cost: usd(0.75, 3.75, 0.075, 0.041667), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: null, max: null }, compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true } },
  { id: "x-ai/grok-4.7", name: "SpaceXAI: Grok 4.7", reasoning: true, input: TEXT_IMAGE, contextWindow: 500_000, maxTokens: 450_000, cost: usd(1.6, 4.8, 0.4, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: null }, compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true } },
  { id: "z-ai/glm-5.3", name: "Z.ai: GLM 5.3", reasoning: true, input: TEXT, contextWindow: 1_048_576, maxTokens: 131_072, cost: usd(0.6538, 2.0548, 0.12142, 0), thinkingLevelMap: { off: null, minimal: null, low: "low", medium: null, high: "high", xhigh: null, max: "max" }, compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true } },
  { id: "deepseek/deepseek-v4-pro", name: "DeepSeek: DeepSeek V4 Pro 0423", reasoning: true, input: TEXT, contextWindow: 1_024_000, maxTokens: 384_000, cost: usd(0.895578, 1.791156, 0.074632, 0), thinkingLevelMap: { off: "none", minimal: null, low: null, medium: null, high: "high", xhigh: "xhigh", max: null }, compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true, requiresReasoningContentOnAssistantMessages: true } },
  { id: "qwen/qwen3-coder", name: "Qwen: Qwen3 Coder 480B A35B", reasoning: false, input: TEXT, contextWindow: 262_144, maxTokens: 65_536, cost: usd(0.3, 1, 0.1, 0), compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true } },
  { id: "minimax/minimax-m3", name: "MiniMax: MiniMax M3", reasoning: true, input: TEXT_IMAGE, contextWindow: 524_288, maxTokens: 512_000, cost: usd(0.3, 1.2, 0.06, 0), compat: { supportsDeveloperRole: false, thinkingFormat: "openrouter", supportsStrictMode: true } },
]);

/** Every built-in model, grouped by provider in this order. */
export const builtinModels: readonly Model[] = Object.freeze([
  ...anthropic,
  ...openai,
  ...google,
  ...xai,
  ...groq,
  ...cerebras,
  ...mistral,
  ...openrouter,
]);

/** Providers with built-in models, in catalogue order. */
export const builtinProviders: readonly string[] = Object.freeze([...new Set(builtinModels.map((m) => m.provider))]);

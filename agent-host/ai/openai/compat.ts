import type { Model, OpenAICompletionsCompat } from "../types";

/** Every compat switch with a value: what the model says, else what its provider or URL implies. */
export type ResolvedCompat = Required<OpenAICompletionsCompat>;

/**
 * Known servers by provider name or base URL. Unknown OpenAI-compatible servers (Ollama, vLLM,
 * LM Studio, llama.cpp) get the conservative defaults: `system` role, `max_tokens`, no `store`.
 */
export function resolveCompat(model: Model): ResolvedCompat {
  let resolved = resolvedByModel.get(model);
  if (!resolved) resolvedByModel.set(model, (resolved = detectCompat(model)));
  return resolved;
}

/** One object per model, so that per-message conversions can be reused across requests. */
const resolvedByModel = new WeakMap<Model, ResolvedCompat>();

function detectCompat(model: Model): ResolvedCompat {
  const url = model.baseUrl.toLowerCase();
  const is = (provider: string, ...hosts: string[]) => model.provider === provider || hosts.some((h) => url.includes(h));
  const openai = is("openai", "api.openai.com");
  const openrouter = is("openrouter", "openrouter.ai");
  const groq = is("groq", "api.groq.com");
  const xai = is("xai", "api.x.ai");
  const zai = is("zai", "api.z.ai", "bigmodel.cn");
  const detected: ResolvedCompat = {
    supportsStore: openai,
    supportsDeveloperRole: openai || (openrouter && /^(openai|anthropic)\//.test(model.id)),
    supportsReasoningEffort: !xai,
    supportsUsageInStreaming: true,
    maxTokensField: openai || openrouter || groq ? "max_completion_tokens" : "max_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresThinkingAsText: false,
    thinkingFormat: openrouter ? "openrouter" : zai ? "zai" : "openai",
    supportsStrictMode: false,
  };
  const given = model.compat ?? {};
  const out: Record<string, unknown> = { ...detected };
  for (const key of Object.keys(detected)) if (given[key] !== undefined && given[key] !== null) out[key] = given[key];
  return out as ResolvedCompat;
}

/** Whether the model should get its instructions as `developer` (OpenAI reasoning models) or `system`. */
export function instructionRole(model: Model, supportsDeveloperRole: boolean): "developer" | "system" {
  return model.reasoning && supportsDeveloperRole ? "developer" : "system";
}

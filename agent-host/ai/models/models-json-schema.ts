/** The schema of pi's models.json: the fields pi 0.87.1 accepts (unknown fields are allowed, as pi allows them). */
import { Type, type Static } from "@sinclair/typebox";

/** A string enum as JSON Schema `enum` (far cheaper for AJV to compile than a union of literals). */
function StringEnum<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values] });
}

const Level = Type.Optional(Type.Unsafe<string | null>({ type: ["string", "null"] }));
const ThinkingLevelMap = Type.Object({ off: Level, minimal: Level, low: Level, medium: Level, high: Level, xhigh: Level, max: Level });

const CostTier = Type.Object({
  inputTokensAbove: Type.Number(),
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
});
const Cost = Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  tiers: Type.Optional(Type.Array(CostTier)),
});
const PartialCost = Type.Partial(Cost);

const optionalBoolean = () => Type.Optional(Type.Boolean());
/** Compatibility switches of all three APIs pi knows (a union in pi; one lenient object here). */
const Compat = Type.Object({
  supportsStore: optionalBoolean(),
  supportsDeveloperRole: optionalBoolean(),
  supportsReasoningEffort: optionalBoolean(),
  supportsUsageInStreaming: optionalBoolean(),
  supportsFinishReason: optionalBoolean(),
  maxTokensField: Type.Optional(StringEnum(["max_completion_tokens", "max_tokens"])),
  requiresToolResultName: optionalBoolean(),
  requiresAssistantAfterToolResult: optionalBoolean(),
  requiresThinkingAsText: optionalBoolean(),
  requiresReasoningContentOnAssistantMessages: optionalBoolean(),
  thinkingFormat: Type.Optional(
    StringEnum(["openai", "openrouter", "together", "baseten", "deepseek", "zai", "qwen", "chat-template", "qwen-chat-template", "string-thinking", "ant-ling"]),
  ),
  supportsStrictMode: optionalBoolean(),
  supportsLongCacheRetention: optionalBoolean(),
  supportsTemperature: optionalBoolean(),
  forceAdaptiveThinking: optionalBoolean(),
});

const Input = Type.Array(StringEnum(["text", "image"]));
const Headers = Type.Record(Type.String(), Type.String());
const Extra = Type.Record(Type.String(), Type.Unknown());

/** What a model definition and a per-model override both may set. */
const modelSettings = {
  name: Type.Optional(Type.String({ minLength: 1 })),
  reasoning: optionalBoolean(),
  thinkingLevelMap: Type.Optional(ThinkingLevelMap),
  input: Type.Optional(Input),
  inputLimits: Type.Optional(Extra),
  promptCache: Type.Optional(Extra),
  contextWindow: Type.Optional(Type.Number()),
  maxTokens: Type.Optional(Type.Number()),
  samplingParams: Type.Optional(Extra),
  headers: Type.Optional(Headers),
  compat: Type.Optional(Compat),
};

const ModelDefinition = Type.Object({
  id: Type.String({ minLength: 1 }),
  api: Type.Optional(Type.String({ minLength: 1 })),
  baseUrl: Type.Optional(Type.String({ minLength: 1 })),
  cost: Type.Optional(Cost),
  ...modelSettings,
});

/** An override may change part of the cost. */
const ModelOverride = Type.Object({ ...modelSettings, cost: Type.Optional(PartialCost) });

export const ProviderConfig = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  baseUrl: Type.Optional(Type.String({ minLength: 1 })),
  apiKey: Type.Optional(Type.String({ minLength: 1 })),
  api: Type.Optional(Type.String({ minLength: 1 })),
  oauth: Type.Optional(Type.String()),
  headers: Type.Optional(Headers),
  compat: Type.Optional(Compat),
  authHeader: optionalBoolean(),
  models: Type.Optional(Type.Array(ModelDefinition)),
  modelOverrides: Type.Optional(Type.Record(Type.String(), ModelOverride)),
});
export type ProviderConfig = Static<typeof ProviderConfig>;
export type ModelDefinition = Static<typeof ModelDefinition>;
export type ModelOverride = Static<typeof ModelOverride>;

export const ModelsFile = Type.Object({ providers: Type.Record(Type.String(), Type.Unknown()) });

/** The schemas of models.json, by the key their precompiled validators have (rpc/precompiled-schemas.ts). */
export const modelsJsonSchemas = { "models.json": () => ModelsFile, "models.json:provider": () => ProviderConfig };

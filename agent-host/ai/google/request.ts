/**
 * The generateContentStream parameters for one reply: system instruction, contents, tools and the
 * thinking level as Gemini's thinkingConfig (a token budget for Gemini 2.5, a thinking level for
 * Gemini 3 and later, which cannot turn thinking off).
 */
import type {
  GenerateContentConfig,
  GenerateContentParameters,
  ThinkingLevel as GoogleLevel,
  ThinkingConfig,
} from "@google/genai" with { "resolution-mode": "import" };
import type { Context, Model, StreamOptions, ThinkingLevel } from "../types";
import { convertContents, convertTools } from "./convert";

type OnLevel = Exclude<ThinkingLevel, "off">;
const onLevels: readonly OnLevel[] = ["minimal", "low", "medium", "high"];

/** Models steered by a thinking level instead of a budget. */
export function usesThinkingLevel(model: Model): boolean {
  const id = model.id.toLowerCase();
  const major = /^gemini-(\d+)/.exec(id)?.[1];
  return (major !== undefined && Number(major) >= 3) || /^gemini-flash(-lite)?-latest$/.test(id) || /gemma-?4/.test(id);
}

/** Budgets per Gemini 2.5 family (their allowed ranges differ); -1 lets other models decide. */
function budgetFor(model: Model, level: OnLevel): number {
  const custom = model.thinkingLevelMap?.[level];
  if (typeof custom === "number") return custom;
  const clamped = level === "xhigh" || level === "max" ? "high" : level;
  const id = model.id.toLowerCase();
  const table = id.includes("2.5-pro")
    ? { minimal: 128, low: 2048, medium: 8192, high: 32768 }
    : id.includes("2.5-flash-lite")
      ? { minimal: 512, low: 2048, medium: 8192, high: 24576 }
      : id.includes("2.5-flash")
        ? { minimal: 128, low: 2048, medium: 8192, high: 24576 }
        : undefined;
  return table ? table[clamped] : -1;
}

// The SDK is an ES module loaded lazily by the provider; its enum values are these strings.
const googleLevels = { minimal: "MINIMAL", low: "LOW", medium: "MEDIUM", high: "HIGH" } as Record<string, GoogleLevel>;

function levelFor(model: Model, level: OnLevel): GoogleLevel {
  const custom = model.thinkingLevelMap?.[level];
  if (typeof custom === "string" && googleLevels[custom.toLowerCase()]) return googleLevels[custom.toLowerCase()];
  return googleLevels[level === "xhigh" || level === "max" ? "high" : level];
}

export function thinkingConfig(model: Model, level: ThinkingLevel | undefined): ThinkingConfig | undefined {
  if (!model.reasoning) return undefined;
  const on = level && level !== "off" ? level : undefined;
  if (usesThinkingLevel(model)) {
    if (on) return { includeThoughts: true, thinkingLevel: levelFor(model, on) };
    // Thinking cannot be switched off here: think as little as the model allows, and show none of it.
    const map = model.thinkingLevelMap;
    const lowest = map ? onLevels.find((l) => typeof map[l] === "string") : model.id.includes("pro") ? "low" : "minimal";
    return { includeThoughts: false, thinkingLevel: levelFor(model, lowest ?? "low") };
  }
  if (on) return { includeThoughts: true, thinkingBudget: budgetFor(model, on) };
  // Gemini 2.5 Pro cannot turn thinking off; its smallest budget is 128.
  return model.id.includes("2.5-pro") ? { includeThoughts: false, thinkingBudget: 128 } : { thinkingBudget: 0 };
}

export function buildGoogleRequest(model: Model, context: Context, options: StreamOptions): GenerateContentParameters {
  const config: GenerateContentConfig = {};
  if (context.systemPrompt?.trim()) config.systemInstruction = context.systemPrompt;
  if (context.tools?.length) config.tools = convertTools(context.tools);
  if (options.temperature !== undefined) config.temperature = options.temperature;
  const thinking = thinkingConfig(model, options.reasoning);
  if (thinking) config.thinkingConfig = thinking;
  if (options.maxTokens !== undefined) {
    // On Gemini thinking counts as output: a cap meant for the answer makes room for the budget too.
    const budget = thinking?.includeThoughts && thinking.thinkingBudget && thinking.thinkingBudget > 0 ? thinking.thinkingBudget : 0;
    config.maxOutputTokens = Math.min(options.maxTokens + budget, model.maxTokens);
  }
  return { model: model.id, contents: convertContents(model, context.messages), config };
}

/**
 * The request body for one streamed Anthropic reply: system prompt and tools with cache
 * breakpoints, the converted conversation, and the thinking level as Anthropic's knobs
 * (a token budget, or adaptive thinking with an effort for models that only think that way).
 */
import type { MessageCreateParamsStreaming, OutputConfig, ThinkingConfigParam } from "@anthropic-ai/sdk/resources/messages";
import type { Context, Model, StreamOptions, ThinkingLevel } from "../types";
import { convertMessages, convertTools, ephemeral } from "./convert";

/** The SDK's types no longer list `temperature`; the API still takes it where the model does. */
export type AnthropicParams = MessageCreateParamsStreaming & { temperature?: number };

export interface AnthropicRequest {
  params: AnthropicParams;
  /** Per-request headers (anthropic-beta). */
  headers: Record<string, string>;
}

type OnLevel = Exclude<ThinkingLevel, "off">;

/** Thinking budgets in tokens; Anthropic needs at least 1024 and less than max_tokens. */
export const thinkingBudgets: Record<OnLevel, number> = { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768, max: 65536 };
const minBudget = 1024;
/** Tokens always left for the answer itself when thinking shares max_tokens. */
const answerRoom = 1024;
const interleavedThinkingBeta = "interleaved-thinking-2025-05-14";

interface ThinkingParams {
  maxTokens: number;
  thinking?: ThinkingConfigParam;
  outputConfig?: OutputConfig;
  beta?: string;
}

/** Models that only think adaptively (effort instead of a budget), as the model registry marks them. */
function isAdaptive(model: Model): boolean {
  return model.compat?.forceAdaptiveThinking === true;
}

function mapped(model: Model, level: ThinkingLevel): unknown {
  return model.thinkingLevelMap?.[level];
}

export function thinkingParams(model: Model, level: ThinkingLevel | undefined, maxTokens: number | undefined): ThinkingParams {
  const base = maxTokens ?? model.maxTokens;
  if (!model.reasoning) return { maxTokens: base };
  if (!level || level === "off") {
    // Adaptive models may think by default; say no unless the model cannot turn thinking off.
    const canDisable = mapped(model, "off") !== null;
    return isAdaptive(model) && canDisable ? { maxTokens: base, thinking: { type: "disabled" } } : { maxTokens: base };
  }
  if (isAdaptive(model)) {
    return { maxTokens: base, thinking: { type: "adaptive", display: "summarized" }, outputConfig: { effort: effortFor(model, level) } };
  }
  const custom = mapped(model, level);
  let budget = typeof custom === "number" ? custom : thinkingBudgets[level];
  // An explicit cap is for the answer: thinking comes on top, within the model's limit.
  const total = maxTokens === undefined ? model.maxTokens : Math.min(maxTokens + budget, model.maxTokens);
  budget = Math.min(budget, total - answerRoom);
  if (budget < minBudget) return { maxTokens: total };
  return { maxTokens: total, thinking: { type: "enabled", budget_tokens: budget }, beta: interleavedThinkingBeta };
}

function effortFor(model: Model, level: OnLevel): NonNullable<OutputConfig["effort"]> {
  const custom = mapped(model, level);
  if (custom === "low" || custom === "medium" || custom === "high" || custom === "xhigh" || custom === "max") return custom;
  if (level === "minimal" || level === "low") return "low";
  return level === "medium" ? "medium" : "high";
}

export function buildAnthropicRequest(model: Model, context: Context, options: StreamOptions): AnthropicRequest {
  const thinking = thinkingParams(model, options.reasoning, options.maxTokens);
  const params: AnthropicParams = {
    model: model.id,
    max_tokens: thinking.maxTokens,
    messages: convertMessages(model, context.messages),
    stream: true,
  };
  if (context.systemPrompt?.trim()) params.system = [{ type: "text", text: context.systemPrompt, cache_control: ephemeral }];
  if (context.tools?.length) params.tools = convertTools(context.tools);
  if (thinking.thinking) params.thinking = thinking.thinking;
  if (thinking.outputConfig) params.output_config = thinking.outputConfig;
  // Extended thinking does not allow a temperature, nor do models the registry marks so.
  const thinkingOn = thinking.thinking !== undefined && thinking.thinking.type !== "disabled";
  if (options.temperature !== undefined && !thinkingOn && model.compat?.supportsTemperature !== false) params.temperature = options.temperature;
  const headers: Record<string, string> = {};
  if (thinking.beta) headers["anthropic-beta"] = mergeBetas(model.headers, options.headers, thinking.beta);
  return { params, headers };
}

/** Adds a beta to the anthropic-beta header the model or caller may already set. */
function mergeBetas(modelHeaders: Record<string, string> | undefined, optionHeaders: Record<string, string> | undefined, beta: string): string {
  const existing = Object.entries({ ...modelHeaders, ...optionHeaders }).find(([name]) => name.toLowerCase() === "anthropic-beta")?.[1];
  const betas = new Set((existing ?? "").split(",").map((b) => b.trim()).filter(Boolean));
  betas.add(beta);
  return [...betas].join(",");
}

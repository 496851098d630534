import { clampThinkingLevel, providerThinkingValue } from "../thinking";
import type { Model, ThinkingLevel } from "../types";

/** Whether the requested level, clamped to what the model accepts, asks for thinking at all. */
export function thinkingEnabled(model: Model, level: ThinkingLevel | undefined): boolean {
  return model.reasoning && clampThinkingLevel(level ?? "off", model) !== "off";
}

/**
 * The `reasoning_effort` / `reasoning.effort` to send, or undefined to send none (the model's
 * default): for non-reasoning models and for "off", unless the model's thinkingLevelMap names an
 * effort for "off" (e.g. `{ off: "none" }` for GPT-5.1, which would otherwise reason). Levels
 * are clamped first (pi's rules: xhigh/max only when mapped, a level mapped to null is skipped).
 */
export function reasoningEffort(model: Model, level: ThinkingLevel | undefined): string | undefined {
  if (!model.reasoning) return undefined;
  const clamped = clampThinkingLevel(level ?? "off", model);
  if (clamped === "off") {
    const off = model.thinkingLevelMap?.off;
    return typeof off === "string" ? off : undefined;
  }
  return providerThinkingValue(model, clamped);
}

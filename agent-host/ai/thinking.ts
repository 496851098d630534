/**
 * Thinking levels a model accepts, and clamping a requested level to them (pi's rules).
 *
 * A model's `thinkingLevelMap` says how each level is spelled for its API; `null` means the level
 * is not supported. Levels up to `high` are supported unless mapped to `null`; `xhigh` and `max`
 * only when the map names them. A model without reasoning has only `off`.
 */
import type { Model, ThinkingLevel } from "./types";

/** All levels, weakest first. */
export const thinkingLevels: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (thinkingLevels as readonly string[]).includes(value);
}

type ThinkingModel = Pick<Model, "reasoning" | "thinkingLevelMap">;

/** The levels `model` accepts, weakest first (`["off"]` for a model without reasoning). */
export function availableThinkingLevels(model: ThinkingModel): ThinkingLevel[] {
  if (!model.reasoning) return ["off"];
  const map = model.thinkingLevelMap ?? {};
  return thinkingLevels.filter((level) => {
    const mapped = map[level];
    if (mapped === null) return false;
    if (level === "xhigh" || level === "max") return mapped !== undefined;
    return true;
  });
}

/**
 * The nearest level `model` accepts: `level` itself if available, else the next stronger one,
 * else the next weaker one (so "minimal" on a model without it becomes "low", and "max" on a model
 * that stops at "high" becomes "high").
 */
export function clampThinkingLevel(level: ThinkingLevel, model: ThinkingModel): ThinkingLevel {
  const available = availableThinkingLevels(model);
  if (available.includes(level)) return level;
  const index = thinkingLevels.indexOf(level);
  if (index < 0) return available[0] ?? "off";
  for (let i = index + 1; i < thinkingLevels.length; i++) if (available.includes(thinkingLevels[i])) return thinkingLevels[i];
  for (let i = index - 1; i >= 0; i--) if (available.includes(thinkingLevels[i])) return thinkingLevels[i];
  return available[0] ?? "off";
}

/**
 * How the model's API spells `level` (its `thinkingLevelMap` entry, e.g. "none" for off on
 * GPT-5.1, "MINIMAL" on Gemma), or `level` itself when the map does not rename it. Call with an
 * available level; for a level mapped to null this returns undefined.
 */
export function providerThinkingValue(model: ThinkingModel, level: ThinkingLevel): string | undefined {
  const mapped = model.thinkingLevelMap?.[level];
  if (mapped === null) return undefined;
  return typeof mapped === "string" ? mapped : level;
}

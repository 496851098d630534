import type { Model, Usage } from "./types";

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** Fills usage.cost from the model's prices ($ per million tokens) and totalTokens from the counts. */
export function applyCost(model: Pick<Model, "cost">, usage: Usage): Usage {
  const perToken = (price: number) => price / 1_000_000;
  usage.cost.input = usage.input * perToken(model.cost.input);
  usage.cost.output = usage.output * perToken(model.cost.output);
  usage.cost.cacheRead = usage.cacheRead * perToken(model.cost.cacheRead);
  usage.cost.cacheWrite = usage.cacheWrite * perToken(model.cost.cacheWrite);
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  return usage;
}

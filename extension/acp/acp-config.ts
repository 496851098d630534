/**
 * An ACP agent's session config options (`configOptions`: session/new, session/load,
 * config_option_update, session/set_config_option) as what our model picker knows: the option of
 * category "model" as Pi models (the agent's name as their provider), its current value as the
 * session's model. Plain: no SDK, no I/O.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { Model, ThinkingLevel } from "../../shared/protocol";

type SelectOption = Extract<acp.SessionConfigOption, { type: "select" }>;

/** A select option's values, groups flattened. */
export function selectValues(option: SelectOption): acp.SessionConfigSelectOption[] {
  return option.options.flatMap((item) => ("group" in item ? item.options : [item]));
}

/** The agent's model choice, if it offers one. */
export function modelOption(options: readonly acp.SessionConfigOption[]): SelectOption | undefined {
  return options.find((o): o is SelectOption => o.type === "select" && o.category === "model");
}

const asModel = (provider: string, value: acp.SessionConfigSelectOption): Model => ({
  id: value.value,
  name: value.name,
  api: "acp",
  provider,
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 0,
  maxTokens: 0,
});

export function modelsOf(options: readonly acp.SessionConfigOption[], provider: string): Model[] {
  const option = modelOption(options);
  return option ? selectValues(option).map((v) => asModel(provider, v)) : [];
}

export function currentModelOf(options: readonly acp.SessionConfigOption[], provider: string): Model | null {
  const option = modelOption(options);
  const current = option && selectValues(option).find((v) => v.value === option.currentValue);
  return current ? asModel(provider, current) : null;
}

const thinkingLevels: readonly string[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/**
 * The agent's option of category "thought_level" as our thinking levels, when each of its values is
 * one of ours (our host's "thinking" option is): the levels and the current one. Else undefined.
 */
export function thinkingOf(options: readonly acp.SessionConfigOption[]): { levels: ThinkingLevel[]; current: ThinkingLevel } | undefined {
  const option = options.find((o): o is SelectOption => o.type === "select" && o.category === "thought_level");
  if (!option) return undefined;
  const values = selectValues(option).map((v) => v.value);
  if (values.length === 0 || !values.every((v) => thinkingLevels.includes(v)) || !values.includes(option.currentValue)) return undefined;
  return { levels: values as ThinkingLevel[], current: option.currentValue as ThinkingLevel };
}

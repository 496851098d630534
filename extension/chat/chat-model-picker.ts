import type { ThinkingLevel } from "../../shared/protocol";
import type { RpcClient } from "../../shared/rpc";
import type { AgentCapabilities } from "../../shared/rpc/capabilities";
import type { ModelChoices, ThinkingLevelChoices } from "../../shared/webview-protocol";

const standardLevels: ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** The header's model picker: the agent's models and the current one. */
export async function modelChoices(client: RpcClient): Promise<ModelChoices> {
  const [{ models }, state] = await Promise.all([client.request("get_available_models", {}), client.request("get_state", {})]);
  return {
    models: models.map((m) => ({ provider: m.provider, id: m.id, ...(m.name ? { name: m.name } : {}), ...(typeof m.contextWindow === "number" && m.contextWindow > 0 ? { contextWindow: m.contextWindow } : {}) })),
    ...(state.model ? { current: { provider: state.model.provider, id: state.model.id } } : {}),
  };
}

/** The thinking-level picker: the model's levels (get_available_thinking_levels when the agent has it, else the standard ones). */
export async function thinkingLevelChoices(client: RpcClient, capabilities: AgentCapabilities | undefined): Promise<ThinkingLevelChoices> {
  const state = await client.request("get_state", {});
  const levels = capabilities?.sessionTree === false ? standardLevels : (await client.request("get_available_thinking_levels", {})).levels;
  return { levels, ...(state.thinkingLevel ? { current: state.thinkingLevel } : {}) };
}

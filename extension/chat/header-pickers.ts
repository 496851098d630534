import type { ThinkingLevel } from "../../shared/protocol";
import type { RpcClient } from "../../shared/rpc";
import type { AgentCapabilities } from "../../shared/rpc/capabilities";
import type { FromWebview, ModelChoices, ThinkingLevelChoices } from "../../shared/webview-protocol";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { ChatHeaderState } from "./chat-header-state";
import type { ChatSessionActions } from "./session-actions";

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

type Pick = Extract<FromWebview, { type: "setModel" | "setThinkingLevel" | "setPermissionMode" }>;

/**
 * The header's pickers on the extension's side: the choices the webview asks for (errors show in
 * the chat and the picker gets none), and what the user picked, sent to this chat's agent.
 */
export class HeaderPickers {
  constructor(
    private readonly supervisor: AgentSupervisor,
    private readonly header: ChatHeaderState,
    private readonly actions: ChatSessionActions | undefined,
    private readonly showError: (error: unknown) => void,
  ) {}

  models(): Promise<ModelChoices> {
    return this.ask((client) => modelChoices(client));
  }

  thinkingLevels(): Promise<ThinkingLevelChoices> {
    return this.ask((client) => thinkingLevelChoices(client, this.supervisor.capabilities));
  }

  async pick(message: Pick): Promise<void> {
    try {
      if (message.type === "setPermissionMode") await this.actions?.setPermissionMode(message.mode);
      const client = await this.supervisor.ensureStarted();
      if (message.type === "setModel") await client.request("set_model", { provider: message.provider, modelId: message.modelId });
      if (message.type === "setThinkingLevel") await client.request("set_thinking_level", { level: message.level });
      await this.header.refreshState(client);
    } catch (error) {
      this.showError(error);
    }
  }

  private async ask<T>(ask: (client: RpcClient) => Promise<T>): Promise<T> {
    try {
      return await ask(await this.supervisor.ensureStarted());
    } catch (error) {
      this.showError(error);
      throw error;
    }
  }
}

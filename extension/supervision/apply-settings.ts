import type * as vscode from "vscode";
import type { AgentCapabilities, RpcClient } from "../../shared/rpc";
import { settings } from "../settings";
import type { Recovery } from "./agent-state";
import { errorText } from "../../shared/error-text";

type Changed = (key: string) => boolean;

/**
 * Sends the model, thinking-level and queue settings to the agent through set_* commands: after
 * start (`changed` absent; thinking level only when `sendThinking`, since the bundled host
 * gets them as arguments), or those that changed. A refusal is logged, never thrown.
 */
export async function applyStartSettings(
  client: RpcClient,
  caps: AgentCapabilities,
  sendThinking: boolean,
  log: vscode.LogOutputChannel,
  changed?: Changed,
): Promise<void> {
  const wants = (key: string) => !changed || changed(key);
  const attempt = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
      log.info(`Applied ${what}`);
    } catch (error) {
      log.warn(`Could not apply ${what}: ${errorText(error)}`);
    }
  };
  if (changed && (changed("pi.model.provider") || changed("pi.model.id")) && settings.defaultModel) {
    const model = await findModel(client, settings.defaultProvider, settings.defaultModel);
    if (model) await attempt(`model ${model.provider}/${model.id}`, () => client.request("set_model", { provider: model.provider, modelId: model.id }));
    else log.warn(`The model ${settings.defaultProvider}/${settings.defaultModel} is not available`);
  }
  const thinking = settings.thinkingLevel;
  if ((sendThinking || changed) && wants("pi.model.thinkingLevel") && thinking !== "default") {
    await attempt(`thinking level ${thinking}`, () => client.request("set_thinking_level", { level: thinking }));
  }
  const steering = settings.steeringMode;
  if (wants("pi.queue.steeringMode") && steering !== "default") {
    await attempt(`steering mode ${steering}`, () => client.request("set_steering_mode", { mode: steering }));
  }
  const followUp = settings.followUpMode;
  if (wants("pi.queue.followUpMode") && followUp !== "default") {
    await attempt(`follow-up mode ${followUp}`, () => client.request("set_follow_up_mode", { mode: followUp }));
  }
  const interrupt = settings.interruptMode;
  if (wants("pi.queue.interruptMode") && interrupt !== "default" && caps.interruptMode) {
    await attempt(`interrupt mode ${interrupt}`, () => client.request("set_interrupt_mode", { mode: interrupt }));
  }
}

async function findModel(client: RpcClient, provider: string, id: string): Promise<{ provider: string; id: string } | undefined> {
  const { models } = await client.request("get_available_models", {});
  return models.find((m) => m.id === id && (!provider || m.provider === provider));
}

/** After a restart: the model and thinking level the agent had, if the reopened session differs. */
export async function restoreRecovered(client: RpcClient, recovery: Recovery, log: vscode.LogOutputChannel): Promise<void> {
  const state = await client.request("get_state", {});
  try {
    const model = recovery.model;
    if (model && (state.model?.provider !== model.provider || state.model?.id !== model.id)) {
      await client.request("set_model", { provider: model.provider, modelId: model.id });
    }
    if (recovery.thinkingLevel && state.thinkingLevel !== recovery.thinkingLevel) {
      await client.request("set_thinking_level", { level: recovery.thinkingLevel });
    }
  } catch (error) {
    log.warn(`Could not restore the model of the previous agent: ${errorText(error)}`);
  }
}

/**
 * What the bridge asks of an ACP agent about its sessions besides prompts: its config options (the
 * model picker's list, session/set_config_option), its saved sessions (session/list, over its
 * pages) and the close of a session left behind (session/close), each only where the agent
 * declares it.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { Model } from "../../shared/protocol";
import { currentModelOf, modelOption, selectValues } from "./acp-config";
import { errorText } from "../../shared/error-text";

/** The most saved sessions Resume Session lists for an ACP agent, and the pages read for them. */
const MAX_LISTED = 500;
const MAX_PAGES = 20;

export interface SessionChoicesContext {
  agent(): acp.ClientConnection["agent"];
  sessionId(): string;
  name(): string;
  capabilities(): acp.AgentCapabilities | undefined;
  cwd: string;
  log?: ((message: string) => void) | undefined;
}

export class SessionChoices {
  /** The session's config options, as the agent last gave them. */
  configOptions: acp.SessionConfigOption[] = [];

  constructor(private readonly context: SessionChoicesContext) {}

  /** What the agent says it can do with saved sessions (initialize): list them, load one (with its history). */
  support(): { list: boolean; load: boolean } {
    const caps = this.context.capabilities();
    return { list: Boolean(caps?.sessionCapabilities?.list), load: caps?.loadSession === true };
  }

  /** session/list for this folder, newest first as the agent gives them (at most MAX_LISTED). */
  async listSessions(): Promise<acp.SessionInfo[]> {
    if (!this.support().list) throw new Error(`${this.context.name()} does not list its sessions (no sessionCapabilities.list).`);
    const sessions: acp.SessionInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && sessions.length < MAX_LISTED; page++) {
      const result = await this.context.agent().request("session/list", { cwd: this.context.cwd, ...(cursor ? { cursor } : {}) });
      sessions.push(...result.sessions);
      cursor = result.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return sessions.slice(0, MAX_LISTED);
  }

  /** Our model picker's choice: session/set_config_option on the agent's model option (a value it did not offer is not sent). */
  async setModel(modelId: string): Promise<Model> {
    const name = this.context.name();
    const option = modelOption(this.configOptions);
    if (!option) throw new Error(`${name} offers no model choice over ACP: it chooses its model itself.`);
    if (!selectValues(option).some((v) => v.value === modelId)) throw new Error(`${name} has no model ${modelId}`);
    const result = await this.context.agent().request("session/set_config_option", { sessionId: this.context.sessionId(), configId: option.id, value: modelId });
    this.configOptions = result.configOptions;
    const model = currentModelOf(this.configOptions, name);
    if (!model) throw new Error(`${name} did not take the model ${modelId}`);
    return model;
  }

  /** The agent's option of category "mode", for an agent that offers its modes only so (opencode). */
  modeOption(): { currentValue: string; values: acp.SessionConfigSelectOption[] } | undefined {
    const option = this.configOptions.find((o): o is Extract<acp.SessionConfigOption, { type: "select" }> => o.type === "select" && o.category === "mode");
    return option ? { currentValue: option.currentValue, values: selectValues(option) } : undefined;
  }

  /** session/set_config_option for one of the values the agent offered (any other is not sent). */
  async setSelect(category: "mode" | "thought_level", value: string): Promise<void> {
    const option = this.configOptions.find((o) => o.type === "select" && o.category === category);
    if (!option || option.type !== "select" || !selectValues(option).some((v) => v.value === value)) throw new Error(`${this.context.name()} has no ${category} ${value}`);
    const result = await this.context.agent().request("session/set_config_option", { sessionId: this.context.sessionId(), configId: option.id, value });
    this.configOptions = result.configOptions;
  }

  /**
   * The session left (for a new or a loaded one) is closed where the agent can (session/close):
   * it frees what the agent holds for it, and an agent may refuse to load a session still open.
   */
  async closeSession(sessionId: string | undefined): Promise<void> {
    if (!sessionId || !this.context.capabilities()?.sessionCapabilities?.close) return;
    await this.context.agent().request("session/close", { sessionId }).catch((error: unknown) => this.context.log?.(`session/close failed: ${errorText(error)}`));
  }
}

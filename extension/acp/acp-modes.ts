/**
 * The agent's own modes for our mode picker: its `modes` (session/set_mode, current_mode_update),
 * or for an agent that offers them as a config option of category "mode" only (opencode), that
 * option's values (session/set_config_option). Named as the agent names them.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { SessionChoices } from "./acp-session-choices";

export interface ModeChoice {
  current: string;
  available: { id: string; name: string; description?: string }[];
  set(id: string): Promise<void>;
}

export interface ModesContext {
  agent(): acp.ClientConnection["agent"];
  sessionId(): string;
  name(): string;
  /** Resolves when the session is open. */
  ready(): Promise<void>;
  choices: SessionChoices;
  /** The modes changed (session/new, current_mode_update, set_mode, a mode option). */
  onModes?: ((modes: acp.SessionModeState | undefined) => void) | undefined;
}

export class AgentModes {
  /** The agent's `modes`, as it last gave them. */
  state: acp.SessionModeState | undefined;

  constructor(private readonly context: ModesContext) {}

  change(modes: acp.SessionModeState | undefined): void {
    this.state = modes;
    this.context.onModes?.(modes);
  }

  /** A config option (perhaps the mode option) changed: the picker reads it again. */
  optionsChanged(): void {
    this.context.onModes?.(this.state);
  }

  choice(): ModeChoice | undefined {
    const { state, context } = this;
    if (state) {
      return { current: state.currentModeId, available: state.availableModes.map((m) => ({ id: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) })), set: (id) => this.set(id) };
    }
    const option = context.choices.modeOption();
    if (!option) return undefined;
    return {
      current: option.currentValue,
      available: option.values.map((v) => ({ id: v.value, name: v.name, ...(v.description ? { description: v.description } : {}) })),
      set: async (id) => {
        await context.ready();
        await context.choices.setSelect("mode", id);
        this.optionsChanged();
      },
    };
  }

  /** session/set_mode: one of the agent's own modes. */
  async set(modeId: string): Promise<void> {
    await this.context.ready();
    if (!this.state?.availableModes.some((m) => m.id === modeId)) throw new Error(`${this.context.name()} has no mode ${modeId}`);
    await this.context.agent().request("session/set_mode", { sessionId: this.context.sessionId(), modeId });
    this.change({ ...this.state, currentModeId: modeId });
  }
}

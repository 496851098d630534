import type { AgentMessage, PermissionMode, ResponseData, UiNotice } from "../../shared/protocol";
import type { RpcClient } from "../../shared/rpc";
import type { SessionHeader, SlashCommandInfo, ToWebview, Widget } from "../../shared/webview-protocol";
import { withBuiltins } from "./builtin-commands";
import { withoutContext } from "./context/context-format";

const maxTitleLength = 80;

/**
 * What the chat shows around the transcript: model, thinking level, session name and usage in
 * the header and footer, widgets set by extensions, and the slash commands for completion.
 */
export class ChatHeaderState {
  private current: SessionHeader = {};
  private readonly widgets = new Map<string, Widget>();
  /** The agent's own slash commands (get_commands); the chat lists the built-ins with them. */
  private commands: SlashCommandInfo[] = [];
  private contextWindow: number | undefined;

  private title: string | undefined;

  constructor(
    private readonly post: (message: ToWebview) => void,
    /** The session's title changed: its name, else its first prompt. */
    private readonly onTitle: (title: string | undefined) => void = () => undefined,
  ) {}

  /** Everything, for a webview that (re)loaded. */
  messages(): ToWebview[] {
    return [
      { type: "header", header: this.current },
      { type: "widgets", widgets: [...this.widgets.values()] },
      { type: "commands", commands: withBuiltins(this.commands) },
    ];
  }

  change(patch: Partial<SessionHeader>): void {
    this.current = { ...this.current, ...patch };
    for (const [key, value] of Object.entries(this.current)) if (value === undefined) delete (this.current as Record<string, unknown>)[key];
    this.post({ type: "header", header: this.current });
    const title = this.current.sessionName ?? this.current.firstPrompt;
    if (title !== this.title) {
      this.title = title;
      this.onTitle(title);
    }
  }

  /** The session's first user message, as one line without its context blocks (its title while it has no name). */
  get firstPrompt(): string | undefined {
    return this.current.firstPrompt;
  }

  /** Sets the first prompt; true when it changed. */
  setFirstPrompt(text: string | undefined): boolean {
    const line = text === undefined ? "" : withoutContext(text).replace(/\s+/g, " ").trim();
    const title = line.length > maxTitleLength ? `${line.slice(0, maxTitleLength - 1)}…` : line || undefined;
    if (title === this.current.firstPrompt) return false;
    this.change({ firstPrompt: title });
    return true;
  }

  async refreshState(client: RpcClient): Promise<void> {
    this.change(this.statePatch(await client.request("get_state", {})));
  }

  /** The agent's state as the supervisor last read it (a settings change set the model): shown when it differs. */
  followState(state: ResponseData<"get_state"> | undefined): void {
    if (!state) return;
    const patch = this.statePatch(state);
    // Only what changed there: the chat's own answer may be newer than the supervisor's last read.
    const seen = JSON.stringify(patch);
    if (seen === this.stateSeen) return;
    this.stateSeen = seen;
    if ((Object.keys(patch) as (keyof typeof patch)[]).some((key) => patch[key] !== this.current[key])) this.change(patch);
  }

  /** The last agent state followState saw. */
  private stateSeen: string | undefined;

  private statePatch(state: ResponseData<"get_state">): Pick<SessionHeader, "model" | "provider" | "thinkingLevel" | "sessionName"> {
    this.contextWindow = state.model?.contextWindow;
    return {
      model: state.model ? state.model.name || state.model.id : undefined,
      provider: state.model?.provider,
      thinkingLevel: state.model?.reasoning ? state.thinkingLevel : undefined,
      sessionName: state.sessionName,
    };
  }

  /** The permission mode as the agent's state (AgentState) has it; undefined for agents without modes. */
  setPermissionMode(mode: PermissionMode | undefined): void {
    if (mode !== this.current.permissionMode) this.change({ permissionMode: mode });
  }

  async refreshStats(client: RpcClient): Promise<void> {
    const stats = await client.request("get_session_stats", {});
    const { input, output, cacheRead, cacheWrite } = stats.tokens;
    const usage = stats.contextUsage;
    this.change({
      tokens: { input, output, cacheRead, cacheWrite },
      cost: stats.cost,
      context: usage ? { tokens: usage.tokens, window: usage.contextWindow, percent: usage.percent } : this.current.context,
    });
  }

  /** A context estimate from the last assistant message, until get_session_stats says better. */
  noteMessage(message: AgentMessage): void {
    if (message.role !== "assistant" || !this.contextWindow || message.stopReason === "error" || message.stopReason === "aborted") return;
    const { input, output, cacheRead, cacheWrite } = message.usage;
    const tokens = input + output + cacheRead + cacheWrite;
    if (tokens <= 0) return;
    this.change({ context: { tokens, window: this.contextWindow, percent: (tokens / this.contextWindow) * 100 } });
  }

  get agentCommands(): readonly SlashCommandInfo[] {
    return this.commands;
  }

  async refreshCommands(client: RpcClient): Promise<void> {
    const { commands } = await client.request("get_commands", {});
    this.commands = commands.map((c) => ({ name: c.name, description: c.description, source: c.source }));
    this.post({ type: "commands", commands: withBuiltins(this.commands) });
  }

  /** setWidget and setTitle; false for notices that are not about the header. */
  notice(notice: UiNotice): boolean {
    if (notice.method === "setTitle") {
      this.change({ title: notice.title || undefined });
      return true;
    }
    if (notice.method !== "setWidget") return false;
    if (!notice.widgetLines || notice.widgetLines.length === 0) this.widgets.delete(notice.widgetKey);
    else this.widgets.set(notice.widgetKey, { key: notice.widgetKey, lines: notice.widgetLines, placement: notice.widgetPlacement === "belowEditor" ? "below" : "above" });
    this.post({ type: "widgets", widgets: [...this.widgets.values()] });
    return true;
  }

  /** Another agent (the user changed pi.agent.*): nothing of the old one's header stays (model, usage, commands). */
  agentReplaced(): void {
    this.current = {};
    this.commands = [];
    this.contextWindow = undefined;
    this.widgets.clear();
    this.post({ type: "widgets", widgets: [] });
    this.post({ type: "commands", commands: withBuiltins(this.commands) });
    this.change({});
  }

  /** A new agent process: its extensions set their widgets and title again. */
  agentRestarted(): void {
    this.widgets.clear();
    this.current = { ...this.current, title: undefined };
    this.post({ type: "widgets", widgets: [] });
    this.change({});
  }
}

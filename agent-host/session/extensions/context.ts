/**
 * The `ctx` that handlers, tools and commands receive: live views of the session (the values are
 * read when used, not when the context was made). Command contexts add the session-control
 * methods pi reserves for user-initiated commands.
 */
import type { SlashCommand } from "../../../shared/protocol";
import type { Model } from "../../ai/types";
import type { ProviderOverride } from "../../ai/models/registry";
import type { ToolSandbox } from "../../tools/tool-sandbox";
import type { HostSession } from "../host-session/host-session";
import { estimateContextTokens } from "../compaction";
import { fork, newSession, switchSession } from "../host-session/navigation";
import type { SessionManager } from "../persistence/session-manager";
import type {
  ContextUsage, ExtensionCommandContext, ExtensionContext, ExtensionMode, ExtensionUIContext, ModelRegistryView, ReadonlySessionView,
} from "./types";

/** What the host gives the extension runtime besides the session. */
export interface ExtensionHostOptions {
  session: HostSession;
  cwd: string;
  ui: ExtensionUIContext;
  mode?: ExtensionMode;
  projectTrusted: boolean;
  /** The environment of the processes exec starts (default: the host's). */
  env?: NodeJS.ProcessEnv;
  /** The OS sandbox exec's processes run in (--sandbox); while it cannot run, each exec is asked. */
  sandbox?: ToolSandbox;
  models: {
    available(): Model[];
    find(provider: string, modelId: string): Model | undefined;
    scoped(): Model[];
    /** registerProvider("<existing provider>", { baseUrl, headers, apiKey }). */
    overrideProvider?(provider: string, override: ProviderOverride | undefined): boolean;
  };
  /** Prompt-template and skill commands (get_commands lists extension commands before them). */
  resourceCommands: () => SlashCommand[];
  /** ctx.shutdown(): end the host once the current run has settled. */
  shutdown: () => void;
}

function sessionView(sessions: SessionManager): ReadonlySessionView {
  return {
    getCwd: () => sessions.cwd,
    getSessionId: () => sessions.sessionId,
    getSessionFile: () => sessions.sessionFile,
    getSessionName: () => sessions.name,
    getLeafId: () => sessions.leafId,
    getEntry: (id) => sessions.get(id),
    getEntries: () => [...sessions.allEntries()],
    getBranch: (fromId) => sessions.branch(fromId ?? sessions.leafId),
  };
}

class SessionContext implements ExtensionContext {
  readonly hasUI = true;
  readonly mode: ExtensionMode;
  readonly ui: ExtensionUIContext;
  readonly cwd: string;
  readonly sessionManager: ReadonlySessionView;
  readonly modelRegistry: ModelRegistryView;

  constructor(protected readonly options: ExtensionHostOptions) {
    this.mode = options.mode ?? "rpc";
    this.ui = options.ui;
    this.cwd = options.cwd;
    this.sessionManager = sessionView(options.session.sessions);
    const models = options.models;
    this.modelRegistry = { find: (p, id) => models.find(p, id), getAvailable: () => models.available(), getAll: () => models.available() };
  }

  private get session(): HostSession {
    return this.options.session;
  }
  get model(): Model | undefined {
    return this.session.hasModel ? this.session.agent.model : undefined;
  }
  get scopedModels(): readonly Model[] {
    return this.options.models.scoped();
  }
  get thinkingLevel() {
    return this.session.agent.thinkingLevel;
  }
  get signal(): AbortSignal | undefined {
    return this.session.agent.signal;
  }
  isIdle(): boolean {
    return !this.session.isStreaming;
  }
  isProjectTrusted(): boolean {
    return this.options.projectTrusted;
  }
  abort(): void {
    void this.session.abort();
  }
  hasPendingMessages(): boolean {
    return this.session.agent.pendingCount > 0;
  }
  shutdown(): void {
    this.options.shutdown();
  }
  getContextUsage(): ContextUsage | undefined {
    if (!this.session.hasModel) return undefined;
    const contextWindow = this.session.agent.model.contextWindow;
    const { tokens } = estimateContextTokens(this.session.agent.messages);
    return { tokens, contextWindow, percent: contextWindow > 0 ? (tokens / contextWindow) * 100 : null };
  }
  compact(options?: { customInstructions?: string; onComplete?: (result: unknown) => void; onError?: (error: Error) => void }): void {
    this.session.compact("manual", options?.customInstructions).then(
      (result) => options?.onComplete?.(result),
      (error: unknown) => options?.onError?.(error instanceof Error ? error : new Error(String(error))),
    );
  }
  getSystemPrompt(): string {
    return this.session.agent.systemPrompt;
  }
}

class CommandContext extends SessionContext implements ExtensionCommandContext {
  waitForIdle(): Promise<void> {
    return this.options.session.waitForSettled();
  }
  async newSession(options?: { parentSession?: string }): Promise<{ cancelled: boolean }> {
    return newSession(this.options.session, options?.parentSession);
  }
  async switchSession(sessionPath: string): Promise<{ cancelled: boolean }> {
    return switchSession(this.options.session, sessionPath);
  }
  async fork(entryId: string): Promise<{ cancelled: boolean }> {
    return { cancelled: fork(this.options.session, entryId).cancelled };
  }
  navigateTree(): Promise<{ cancelled: boolean }> {
    return Promise.reject(new Error("navigateTree is not supported by this agent host"));
  }
  reload(): Promise<void> {
    return Promise.reject(new Error("reload is not supported by this agent host: restart the agent instead"));
  }
  getSystemPromptOptions(): { cwd: string } {
    return { cwd: this.cwd };
  }
}

export function createContexts(options: ExtensionHostOptions): { context: ExtensionContext; commandContext: ExtensionCommandContext } {
  return { context: new SessionContext(options), commandContext: new CommandContext(options) };
}

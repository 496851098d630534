import * as vscode from "vscode";
import type { ResponseData, StopReason, ThinkingLevel } from "../../shared/protocol";
import type { AgentCapabilities, RpcClient } from "../../shared/rpc";
import type { AgentStatus } from "../../shared/webview-protocol";
import { AgentQueue } from "./agent-queue";
import { capabilityNotes, type EditorToolsVia } from "./capability-notes";

export type SessionState = ResponseData<"get_state">;
export interface ModelRef {
  provider: string;
  id: string;
}

/** What a restarted agent should get back: its session file, model, thinking level, queued texts. */
export interface Recovery {
  sessionFile?: string;
  model?: ModelRef;
  thinkingLevel?: ThinkingLevel;
  /** Steering and follow-up texts that were queued when the agent went away. */
  queue: string[];
}

export interface RestartInfo {
  /** A restart is scheduled for this time (ms since epoch). */
  at?: number;
  /** The crash limit was reached: no automatic restart. */
  gaveUp?: boolean;
}

/**
 * The agent as the rest of the extension sees it, and the one owner of it: run status, session
 * state (from get_state, kept fresh after runs and state-changing commands), capabilities and
 * their notes, the queue, open dialogs. The chat header, the Sessions list, the status bar and
 * context keys all render from it.
 */
export class AgentState implements vscode.Disposable {
  status: AgentStatus = "stopped";
  blockedReason: string | undefined;
  session: SessionState | undefined;
  capabilities: AgentCapabilities | undefined;
  notes: string[] = [];
  /** How the editor's tools reach the agent: set_host_tools, the editor bridge (a Pi extension), or not at all. */
  editorToolsVia: EditorToolsVia | undefined;
  label: string | undefined;
  /** Steering and follow-up messages the agent holds. */
  readonly queue = new AgentQueue();
  openDialogs = 0;
  /**
   * How the last run ended: its last assistant message's stop reason ("stop": it answered;
   * "aborted", "error", "length", "toolUse": cut short). Undefined while none came.
   */
  lastRunEnd: StopReason | undefined;
  restart: RestartInfo | undefined;
  private recovery: Recovery | undefined;
  private client: RpcClient | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Anything above changed. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly statusEmitter = new vscode.EventEmitter<AgentStatus>();
  readonly onDidChangeStatus = this.statusEmitter.event;
  private readonly sessionEmitter = new vscode.EventEmitter<{ state: SessionState; previous: SessionState | undefined }>();
  /** The agent now works on another session (new, switched, forked, reopened). */
  readonly onDidChangeSession = this.sessionEmitter.event;
  private readonly undeliveredEmitter = new vscode.EventEmitter<string[]>();
  /** Queued texts a crashed agent never delivered. */
  readonly onUndelivered = this.undeliveredEmitter.event;

  /** The last start failed (status "crashed" without ever running): said as "did not start", not "crashed". */
  startFailed = false;

  setStatus(status: AgentStatus, startFailed = false): void {
    if (status === this.status && startFailed === this.startFailed) return;
    this.status = status;
    this.startFailed = status === "crashed" && startFailed;
    if (status !== "crashed") this.restart = undefined;
    // An idle agent may still hold a queue (Pi keeps it through an abort); a process that is gone holds none.
    if (status === "stopped" || status === "crashed") this.queue.clear();
    this.statusEmitter.fire(status);
    this.changeEmitter.fire();
  }

  setBlocked(reason: string | undefined): void {
    this.blockedReason = reason;
    this.changeEmitter.fire();
  }

  setRestart(info: RestartInfo | undefined): void {
    this.restart = info;
    this.changeEmitter.fire();
  }

  setCapabilities(caps: AgentCapabilities, label: string, wantsInterruptMode: boolean, editorToolsVia?: EditorToolsVia): void {
    this.capabilities = caps;
    this.label = label;
    this.editorToolsVia = editorToolsVia;
    this.notes = capabilityNotes(caps, wantsInterruptMode, editorToolsVia);
    this.changeEmitter.fire();
  }

  /** Follows one agent process: run status, queue, and when to re-read its state. */
  observe(client: RpcClient): vscode.Disposable {
    this.client = client;
    const subs = [
      client.on("agent_start", () => {
        this.lastRunEnd = undefined;
        this.setStatus("running");
      }),
      client.on("message_end", ({ message }) => {
        if (message.role === "assistant") this.lastRunEnd = message.stopReason;
      }),
      client.onSettled(() => {
        this.setStatus("idle");
        this.refreshSoon();
      }),
      this.queue.observe(client),
      this.queue.onDidChange(() => this.changeEmitter.fire()),
      client.on("thinking_level_changed", () => this.refreshSoon()),
      client.on("session_info_changed", () => this.refreshSoon()),
    ];
    return {
      dispose: () => {
        for (const sub of subs) sub.dispose();
        if (this.client === client) this.client = undefined;
      },
    };
  }

  /** Re-reads get_state (debounced); state-changing responses and settled runs call this. */
  refreshSoon(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      // A refresh that fails (the agent exiting) is left: the next event or start refreshes again.
      if (this.client) void this.refresh(this.client).catch(() => undefined);
    }, 50);
  }

  async refresh(client: RpcClient): Promise<SessionState> {
    const state = await client.request("get_state", {});
    const before = this.session;
    this.session = state;
    // An agent that reports no queue says at least how much it still holds.
    if (this.status !== "running") this.queue.agentHolds(state.pendingMessageCount ?? state.queuedMessageCount ?? 0);
    if (!before || before.sessionId !== state.sessionId || before.sessionFile !== state.sessionFile) this.sessionEmitter.fire({ state, previous: before });
    this.changeEmitter.fire();
    return state;
  }

  /** What to give a restarted agent, from the last known state. */
  recoveryPoint(): Recovery {
    const s = this.session;
    return {
      ...(s?.sessionFile ? { sessionFile: s.sessionFile } : {}),
      ...(s?.model ? { model: { provider: s.model.provider, id: s.model.id } } : {}),
      ...(s?.thinkingLevel ? { thinkingLevel: s.thinkingLevel } : {}),
      queue: this.queue.texts(),
    };
  }

  keepRecovery(recovery: Recovery): void {
    this.recovery = recovery;
  }

  takeRecovery(): Recovery | undefined {
    const recovery = this.recovery;
    this.recovery = undefined;
    return recovery;
  }

  reportUndelivered(texts: string[]): void {
    this.undeliveredEmitter.fire(texts);
  }

  /** Counts a native dialog while it is open (the status bar shows "waiting for you"). */
  async trackDialog<T>(dialog: Promise<T>): Promise<T> {
    this.openDialogs++;
    this.changeEmitter.fire();
    try {
      return await dialog;
    } finally {
      this.openDialogs--;
      this.changeEmitter.fire();
    }
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.queue.dispose();
    for (const emitter of [this.changeEmitter, this.statusEmitter, this.sessionEmitter, this.undeliveredEmitter]) emitter.dispose();
  }
}

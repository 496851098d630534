import type { HostTool } from "../../shared/rpc/host-tool-registry";
import * as vscode from "vscode";
import { vscodeLmProviders } from "../vscode-lm";
import { terminalOnlyNotice } from "../../shared/protocol";
import { AgentSupervisor } from "../supervision/agent-supervisor";
import type { SandboxRoots } from "../save-guard/save-guard";
import type { AgentAttach } from "../supervision/supervisor-options";
import type { ApiKeyStore } from "../api-keys";
import { ChatController } from "../chat/chat-controller";
import type { ChatLinks } from "../chat/chat-links";
import type { WorkspaceFiles } from "../chat/context/workspace-files";
import type { ChatChanges, ChatSessionActions } from "../chat/session-actions";
import type { ChatSurface } from "../chat/chat-surface";
import type { ChatAccess } from "../commands";
import { Lifetime } from "../lifetime";
import type { EditorDialogs } from "../ui/editor-dialog";
import { showNativeDialog } from "../ui/native-dialogs";
import { NoticePresenter } from "../ui/notices";
import { offerUndelivered } from "../ui/recovery-notice";
import type { ProjectTrust } from "../supervision/project-trust";
import { runOutcome, sessionActivity, type RunOutcome, type SessionActivity } from "./activity";
import { PendingDialogs } from "./pending-dialogs";
import { PlanState } from "../plan/plan-state";
import type { HostPools } from "../supervision/pool/host-pools";
import { windowFocus } from "../ui/window-focus";

/** What every session shares: the extension's log, keys, dialogs and per-agent hooks. */
export interface SessionServices {
  extensionPath: string;
  log: vscode.LogOutputChannel;
  apiKeys: ApiKeyStore;
  editorDialogs: EditorDialogs;
  links: ChatLinks;
  /** The window's workspace file list for `@` completion: one watcher for every session, started by the first `@`. */
  files?: WorkspaceFiles;
  /** Run on each agent process of every session (editor host tools, checkpoints). */
  attach: AgentAttach[];
  /** The checkpoint store the bundled host records in (undefined while checkpoints are off). */
  checkpointStore?: () => string | undefined;
  /** The one project-trust decider of the window. */
  projectTrust?: ProjectTrust;
  /** The editor's host tools, for agents that get them through the editor bridge (#35). */
  editorTools?: () => readonly HostTool[];
  /** VS Code's user folder (its mcp.json). */
  vscodeUserDir?: string;
  /** The window's shared processes of the bundled host (`pi.agent.shareProcess`). */
  hostPools?: HostPools;
  /** Keeps the editor's saves inside what sandboxed commands may write, from the first sandboxed start. */
  armSaveGuard?: (roots: SandboxRoots) => void;
  /** The changes of a session's agents waiting for review, for its chat's changes line. */
  changes?: (sessionId: string) => ChatChanges;
  /** What a session's chat asks of its own session (the header's menu, rewind). */
  chatActions?: (session: AgentSession) => ChatSessionActions;
}

export interface SessionSpec {
  /** "sidebar" for the side panel's session, "tab" for one in an editor tab. */
  place: "sidebar" | "tab";
  surface: ChatSurface;
  /** A number for the default label ("Session 2"). */
  ordinal: number;
  cwd?: string;
  worktree?: { path: string; branch: string };
  sessionFile?: string;
}

/**
 * One agent at work: its own process (supervisor), chat (controller on a surface), dialogs and
 * notices. Several run at once, each in the side panel or an editor tab; `activity` is what the
 * sessions list and the status bar show.
 */
export class AgentSession implements vscode.Disposable {
  readonly supervisor: AgentSupervisor;
  readonly chat: ChatController;
  readonly notices: NoticePresenter;
  readonly pending: PendingDialogs;
  readonly chatAccess: ChatAccess;
  /** The agent's plan (todos), shown in the Plan view. */
  readonly plan: PlanState;
  private readonly lifetime = new Lifetime();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly runEndedEmitter = new vscode.EventEmitter<RunOutcome>();
  /** A run settled (the agent waits for the user's next message). */
  readonly onDidEndRun = this.runEndedEmitter.event;
  private lastRun: RunOutcome | undefined;
  private seen = true;

  constructor(
    readonly id: string,
    private readonly spec: SessionSpec,
    services: SessionServices,
  ) {
    const log = services.log;
    this.supervisor = this.lifetime.add(
      new AgentSupervisor({
        extensionPath: services.extensionPath,
        owner: id,
        log,
        keys: services.apiKeys,
        acpSignIns: services.apiKeys.gatewaySignIns,
        localProviders: () => vscodeLmProviders(log),
        ...(services.checkpointStore ? { checkpointStore: services.checkpointStore } : {}),
        ...(services.projectTrust ? { projectTrust: services.projectTrust } : {}),
        ...(services.editorTools ? { editorTools: services.editorTools } : {}),
        ...(services.vscodeUserDir ? { vscodeUserDir: services.vscodeUserDir } : {}),
        ...(services.hostPools ? { hostPools: services.hostPools } : {}),
        ...(services.armSaveGuard ? { armSaveGuard: services.armSaveGuard } : {}),
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        ...(spec.sessionFile ? { sessionFile: spec.sessionFile } : {}),
      }),
    );
    const surface = spec.surface;
    this.plan = this.lifetime.add(new PlanState(this.supervisor));
    this.chat = this.lifetime.add(new ChatController(this.supervisor, surface, { log, links: services.links, ...(services.files ? { files: services.files } : {}), actions: services.chatActions?.(this), plan: this.plan, changes: services.changes?.(id) }));
    this.notices = this.lifetime.add(new NoticePresenter((notice) => log.info(`UI request ${notice.method} is not shown: ${JSON.stringify(notice)}`)));
    this.pending = this.lifetime.add(new PendingDialogs((id, answer) => this.chat.dialogs.answer(id, answer)));
    this.chatAccess = {
      setInput: (text: string) => {
        this.chat.post({ type: "setInput", text });
        surface.reveal();
      },
    };

    // Dialogs: native UI and a chat card (first answer wins), tracked so none is lost.
    const dialogs = this.pending.track(this.chat.withInlineDialogs((request, token) => showNativeDialog(request, token, services.editorDialogs, this.chat.changeShownBy(request))));
    this.supervisor.onAttach((client, agentLifetime) => {
      this.plan.attach(client, agentLifetime);
      client.setDialogHandler((request, token) => this.supervisor.agent.trackDialog(dialogs(request, token)));
      client.setNoticeHandler((notice) => {
        if (notice.method === "notify" && notice.message === terminalOnlyNotice) return this.offerTerminal(log);
        if (notice.method === "setTitle") surface.setTitle(notice.title);
        if (!this.chat.showNotice(notice)) this.notices.show(notice);
      });
      // The user aborted this run: its open questions end with it (see onSettled below).
      let aborted = false;
      agentLifetime.add(client.onDidSendCommand((type) => {
        if (type !== "abort" && type !== "abort_and_prompt") return;
        aborted = true;
        // At once, not when the run settles: an agent may wait for the answer before it can stop
        // (pi awaits an extension's question in its tool_call handler), so the question ends first.
        this.pending.cancelOpen();
      }));
      agentLifetime.add(client.onEvent((event) => {
        if (event.type === "agent_start") {
          this.lastRun = undefined;
          aborted = false;
        }
        if (event.type === "agent_end" && !event.willRetry) this.lastRun = runOutcome(event);
      }));
      agentLifetime.add(client.onSettled(() => {
        // An aborted run's questions are over: the agent stopped waiting for them (Pi tells no one).
        if (aborted || this.lastRun === "aborted") this.pending.cancelOpen();
        aborted = false;
        this.lastRun ??= "done";
        this.seen = surface.visible && windowFocus.focused;
        this.update();
        this.runEndedEmitter.fire(this.lastRun);
      }));
      agentLifetime.add({ dispose: () => this.notices.clear() });
    });
    for (const hook of services.attach) this.supervisor.onAttach(hook);

    this.lifetime.add(this.supervisor.agent.onUndelivered((texts) => offerUndelivered(texts, this.supervisor, this.chatAccess)));
    this.lifetime.add(
      this.supervisor.agent.onDidChangeSession(({ state, previous }) => {
        // Another conversation (new, resumed, forked): the transcript of the old one goes.
        if (previous && previous.sessionId !== state.sessionId) this.chat.transcript.clear();
      }),
    );
    this.lifetime.add(this.supervisor.agent.onDidChange(() => this.update()));
    this.lifetime.add(this.chat.onDidChangeFirstPrompt(() => this.update()));
    this.lifetime.add(this.pending.onDidChange(() => this.update()));
    this.lifetime.add(surface.onDidChangeVisibility(() => surface.visible && this.markSeen()));
    this.lifetime.add(this.supervisor.deltaPace.watchWhileVisible(surface));
    this.lifetime.add(this.changeEmitter);
    this.lifetime.add(this.runEndedEmitter);
  }

  get surface(): ChatSurface {
    return this.spec.surface;
  }

  get place(): "sidebar" | "tab" {
    return this.spec.place;
  }

  get worktree(): { path: string; branch: string } | undefined {
    return this.spec.worktree;
  }

  get activity(): SessionActivity {
    const agent = this.supervisor.agent;
    return sessionActivity({ status: agent.status, openDialogs: Math.max(agent.openDialogs, this.pending.size), lastRun: this.lastRun, seen: this.seen });
  }

  /** The session's name, else its first prompt (as Pi's session picker), else "Session N". */
  get label(): string {
    const state = this.supervisor.state;
    if (state?.sessionName) return state.sessionName;
    return this.chat.firstPrompt ?? `Session ${this.spec.ordinal}`;
  }

  get sessionFile(): string | undefined {
    return this.supervisor.state?.sessionFile;
  }

  get description(): string {
    const parts = [this.spec.place === "sidebar" ? "side bar" : "editor tab"];
    if (this.spec.worktree) parts.push(`worktree ${this.spec.worktree.branch}`);
    return parts.join(" · "); // the session file is in the tooltip
  }

  /** An extension wanted a terminal-only view: say so in the chat and offer the terminal handoff. */
  private offerTerminal(log: vscode.LogOutputChannel): void {
    const text = `${terminalOnlyNotice} Open this session in Pi's terminal UI to use it.`;
    log.info(`${this.label}: ${terminalOnlyNotice}`);
    this.chat.transcript.add({ kind: "notice", title: "Terminal only", text });
    void vscode.window.showWarningMessage(`Pi: ${text}`, "Open in Pi Terminal UI").then((choice) => {
      if (choice) void vscode.commands.executeCommand("pi.openInTerminal", this.id);
    });
  }

  /** The user looked at the session: "done" becomes "idle". */
  markSeen(): void {
    if (this.seen) return;
    this.seen = true;
    this.update();
  }

  reveal(): void {
    this.spec.surface.reveal();
    this.markSeen();
  }

  private update(): void {
    this.chat.setWaiting(this.activity === "waiting");
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.lifetime.dispose();
  }
}

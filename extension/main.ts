import { moduleLoadedAt } from "./load-clock";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentSupervisor } from "./supervision/agent-supervisor";
import type { AgentAttach } from "./supervision/supervisor-options";
import { ApiKeyStore } from "./api-keys";
import type { ChatController } from "./chat/chat-controller";
import { registerChatCommands } from "./chat/chat-commands";
import type { ChatChanges, ChatSessionActions } from "./chat/session-actions";
import { ChatLinks } from "./chat/chat-links";
import { WorkspaceFiles } from "./chat/context/workspace-files";
import { deferClientValidators } from "./precompiled-validators";
import { CHAT_PANEL_TYPE } from "./chat/chat-panel";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chat/chat-view";
import { registerCommands, type CommandContext } from "./commands";
import { installEditorHostTools } from "./host-tools";
import type { HostTool } from "../shared/rpc/host-tool-registry";
import { chooseVscodeTools, installVscodeTools } from "./vscode-tools";
import { piChatHandler, registerPiParticipant } from "./chat-participant";
import { installCheckpoints, type Checkpoints } from "./checkpoints";
import { installReview, type ChangesReview } from "./review";
import { Lifetime } from "./lifetime";
import { SessionAttention } from "./sessions/attention";
import type { AgentSession } from "./sessions/agent-session";
import { chatActionsFor } from "./sessions/chat-actions";
import { answerNatively, openInTerminal, registerSessionsCommands } from "./sessions/commands";
import { registerSidebarCommands } from "./sessions/sidebar-commands";
import { SessionRegistry } from "./sessions/session-registry";
import { SESSIONS_VIEW_ID, SessionsTreeProvider } from "./sessions/sessions-view";
import { SessionsStatusItem } from "./sessions/sessions-status";
import { applyWhenChanged, followSettings, restartWhenChanged, settings } from "./settings";
import { AgentStatusItem } from "./status/status-item";
import { ProjectTrust } from "./supervision/project-trust";
import { PlanView } from "./plan/plan-view";
import { rememberPermissionModes } from "./modes/mode-memory";
import { registerMcpServersCommand } from "./mcp/mcp-servers-command";
import { registerOfferVsCodeMcpCommand } from "./mcp/offer-vscode-mcp-command";
import { registerAgentPicker } from "./acp/agent-picker";
import { PermissionModes } from "./modes/permission-modes";
import { EditorDialogs } from "./ui/editor-dialog";
import { decorateSandboxStubs } from "./sandbox/stub-decorations";
import type { NoticePresenter } from "./ui/notices";
import { windowFocus } from "./ui/window-focus";
import { HostPools } from "./supervision/pool/host-pools";
import { SaveGuard, type SandboxRoots } from "./save-guard/save-guard";

/** What activate() returns: used by the real-VS-Code tests, and by other extensions. */
export interface PiExtensionApi {
  /** The side panel's session (always there). */
  readonly supervisor: AgentSupervisor;
  readonly chat: ChatController;
  readonly notices: NoticePresenter;
  readonly status: AgentStatusItem;
  /** Every session of the window, the side panel's first. */
  readonly sessions: SessionRegistry;
  readonly attention: SessionAttention;
  readonly sessionsStatus: SessionsStatusItem;
  readonly apiKeys: ApiKeyStore;
  readonly editorDialogs: EditorDialogs;
  /** The agents' changes pending review (the Changes view). */
  readonly review: ChangesReview;
  /** The checkpoint store's folder (undefined while checkpoints are off). */
  checkpointStore(): string | undefined;
  /** Where the "Pi Agent" log file is written. */
  readonly logFolder: vscode.Uri;
  /** The window's workspace file list (`@` completion), shared by every session's chat. */
  readonly workspaceFiles: WorkspaceFiles;
  /**
   * Milliseconds of the extension's own work to activate: loading its bundle (dist/extension.js
   * reading, compiling or taking from the code cache, and running its modules) plus `activate`.
   * Not the time VS Code takes between loading an extension and calling its activate.
   */
  readonly activationMs: number;
  /** `@pi`'s handler in VS Code's Chat view (also where this VS Code shows no Chat view: tests call it). */
  readonly chatParticipantHandler: vscode.ChatRequestHandler;
  /** VS Code's user folder, where its own mcp.json is read. */
  readonly vscodeUserDir: string;
}

/** The folders agents work in: the workspace's folders and the session worktrees under the extension's storage. */
function agentRoots(context: vscode.ExtensionContext): string[] {
  return [...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath), vscode.Uri.joinPath(context.globalStorageUri, "worktrees").fsPath];
}

let extensionLifetime: Lifetime | undefined;
let activeSessions: SessionRegistry | undefined;

/** How dist/extension.js loaded this bundle (extension/start.ts): in how long, and whether V8's code cache was taken. */
export interface BundleLoad {
  ms: number;
  codeCache: "taken" | "none" | "rejected" | "off";
}

export function activate(context: vscode.ExtensionContext, load?: BundleLoad): PiExtensionApi {
  const activateCalledAt = performance.now();
  deferClientValidators();
  const lifetime = new Lifetime();
  extensionLifetime = lifetime;
  lifetime.add(followSettings());
  const log = lifetime.add(vscode.window.createOutputChannel("Pi Agent", { log: true }));
  const apiKeys = lifetime.add(new ApiKeyStore(context.secrets, context.globalState));
  const editorDialogs = lifetime.add(new EditorDialogs());
  const links = lifetime.add(new ChatLinks(log));
  const files = lifetime.add(new WorkspaceFiles());
  // Hooks run on every agent process of every session.
  const attach: AgentAttach[] = [];
  const everyAgent = { onAttach: (hook: AgentAttach) => void attach.push(hook) };
  // The editor tools, also for agents without set_host_tools: through the editor bridge (#35).
  const editorTools: HostTool[] = [];
  lifetime.add(installEditorHostTools({ ...everyAgent, offerThroughBridge: (tools) => void editorTools.push(...tools) }));
  installVscodeTools(everyAgent, log);
  lifetime.add(decorateSandboxStubs(everyAgent));
  lifetime.add(vscode.commands.registerCommand("pi.chooseVscodeTools", chooseVscodeTools));
  const checkpoints: Checkpoints = lifetime.add(installCheckpoints({ everyAgent, sessions: () => sessions, storageDir: context.globalStorageUri.fsPath, log }));
  // The palette's Keep All / Undo All act on the session the user sees (and say which).
  const reviewSessions = {
    active: () => ({ id: sessions.active.id, label: sessions.active.label, several: sessions.all.length > 1 }),
    label: (id: string) => sessions.get(id)?.label,
    conversation: (id: string) => sessions.get(id)?.supervisor.state?.sessionId,
  };
  const { review } = lifetime.add(installReview({ everyAgent, store: () => checkpoints.activeStore(), roots: () => agentRoots(context), sessions: reviewSessions, log }));
  // A chat's changes line: its own session's changes, and its buttons run the review's commands for that session.
  const changes = (session: string): ChatChanges => ({
    onDidChange: review.onDidChange,
    summary: () => review.summary(session),
    act: async (action) => {
      if (action !== "review") return vscode.commands.executeCommand(`pi.review.${action}`, { session });
      await vscode.commands.executeCommand("pi.changes.focus");
      const first = review.files(session)[0];
      return first && vscode.commands.executeCommand("pi.review.openDiff", first);
    },
    takeUndone: () => review.takeUndone(session),
    openDiff: async (file, near) => {
      // A file without a recorded before has no diff to review (Keep only): the call's own diff says more.
      if (!review.files(session).some((f) => f.path === file && f.before !== undefined)) return false;
      await vscode.commands.executeCommand("pi.review.openDiff", { path: file, near });
      return true;
    },
  });

  const view = lifetime.add(new ChatViewProvider(context.extensionUri, log));
  // A chat acts on its own session; commands on the session the user worked with last (`sessions.active`).
  const commandContext = (session?: AgentSession): CommandContext => ({
    get supervisor() {
      return (session ?? sessions.active).supervisor;
    },
    chat: { setInput: (text) => (session ?? sessions.active).chatAccess.setInput(text) },
    composeMessage: async (text) => (await (session ?? sessions.active).chat.context.compose(text)).message,
    get chatVisible() {
      return (session ?? sessions.active).surface.visible;
    },
    attachToChat: async (uris, lines) => {
      const target = session ?? sessions.active;
      target.chat.context.offer(await target.chat.context.attachmentsFor(uris, lines));
      target.reveal();
    },
    apiKeys,
    log,
    exportsDir: vscode.Uri.joinPath(context.globalStorageUri, "exports").fsPath,
    get targetName() {
      const target = session ?? sessions.active;
      return sessions.all.length > 1 ? `${target.label} (${target.description})` : undefined;
    },
  });
  const chatActions = (session: AgentSession): ChatSessionActions =>
    chatActionsFor(session, {
      commandContext,
      rewind: (request): Promise<unknown> => checkpoints.rewind(request),
      openInTab: () => sessions.openInTab(),
      openInTerminal: (target) => openInTerminal(target, log),
      setActive: (target) => sessions.setActive(target),
      setPermissionMode: (target, mode): Promise<unknown> => permissionModes.choose(mode, target),
      approvePlan: (target): Promise<unknown> => permissionModes.approvePlan(target),
    });
  const projectTrust = new ProjectTrust(log);
  // VS Code's user folder (its mcp.json): globalStorageUri is <user folder>/globalStorage/<extension id>.
  const vscodeUserDir = path.dirname(path.dirname(context.globalStorageUri.fsPath));
  // Shared processes of the bundled host (pi.agent.shareProcess): none is started until a session asks for one.
  // Made at the first sandboxed agent start (prepare-launch.ts), not before Pi is used.
  let saveGuard: SaveGuard | undefined;
  const armSaveGuard = (roots: SandboxRoots) => {
    saveGuard ??= lifetime.add(new SaveGuard(log, context.workspaceState, path.join(context.extensionPath, "dist", "agent-host.js")));
    saveGuard.addRoots(roots);
  };
  const hostPools = lifetime.add(new HostPools(path.join(context.extensionPath, "dist", "agent-host.js"), process.execPath, (message) => log.info(message)));
  const sessions: SessionRegistry = lifetime.add(new SessionRegistry({ extensionPath: context.extensionPath, log, apiKeys, editorDialogs, links, files, attach, checkpointStore: (): string | undefined => checkpoints.activeStore(), projectTrust, chatActions, changes, editorTools: () => editorTools, vscodeUserDir, hostPools, armSaveGuard }, view, context.extensionUri));
  activeSessions = sessions;
  // A closed tab's changes are still on disk to review: the side bar's chat takes them.
  const adoptOrphans = () => review.adopt(new Set(sessions.all.map((s) => s.id)), sessions.primary.id);
  adoptOrphans();
  lifetime.add(sessions.onDidChange(adoptOrphans));
  const participantTarget = () => sessions.active;
  lifetime.add(registerPiParticipant(participantTarget, context.extensionUri));
  const primary = sessions.primary;
  const status = lifetime.add(new AgentStatusItem(primary.supervisor.agent, () => sessions.active.label));
  // The status bar shows the session the palette's commands act on (#32).
  lifetime.add(sessions.onDidChange(() => status.follow(sessions.active.supervisor.agent)));
  const sessionsStatus = lifetime.add(new SessionsStatusItem(sessions));
  lifetime.add(windowFocus);
  const attention = lifetime.add(
    new SessionAttention(sessions, () => settings.attention, (session, request) => answerNatively(session, request.id, editorDialogs)),
  );
  lifetime.add(view.onDidChangeVisibility(() => view.visible && sessions.focusPrimary()));
  lifetime.add(view.onDidBecomeActive(() => sessions.focusPrimary()));

  lifetime.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }));
  lifetime.add(new PlanView(sessions));
  const permissionModes: PermissionModes = lifetime.add(new PermissionModes(sessions));
  lifetime.add(rememberPermissionModes(sessions, context.workspaceState, log));
  lifetime.add(registerMcpServersCommand(sessions));
  lifetime.add(registerOfferVsCodeMcpCommand({ userDir: vscodeUserDir, projectTrust }));
  lifetime.add(registerAgentPicker());
  const tree = lifetime.add(new SessionsTreeProvider(sessions));
  lifetime.add(vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: tree }));
  // A chat tab left over from before a reload has no agent: close it (its session can be resumed).
  lifetime.add(vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, { deserializeWebviewPanel: async (panel) => panel.dispose() }));

  for (const disposable of registerCommands(commandContext())) lifetime.add(disposable);
  lifetime.add(registerChatCommands(() => sessions.active.chat));
  for (const disposable of registerSessionsCommands({ registry: sessions, log, editorDialogs, storage: context.globalStorageUri })) lifetime.add(disposable);
  for (const disposable of registerSidebarCommands(() => sessions.focusPrimary())) lifetime.add(disposable);
  lifetime.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      for (const { supervisor } of sessions.all) {
        if (restartWhenChanged.some((key) => e.affectsConfiguration(key))) {
          // Also after a failed start: the user is fixing what failed (the failure shows in the chat).
          if (supervisor.client || supervisor.startFailure) void supervisor.restart().catch((error: unknown) => log.error(`Restart after a settings change failed: ${String(error)}`));
        } else if (applyWhenChanged.some((key) => e.affectsConfiguration(key))) {
          void supervisor.applySettings((key) => e.affectsConfiguration(key));
        }
      }
    }),
  );
  context.subscriptions.push(lifetime);
  const activateMs = performance.now() - activateCalledAt;
  // Loaded some other way (not through dist/extension.js): from this bundle's first module on.
  const loadingMs = load?.ms ?? activateCalledAt - moduleLoadedAt;
  const activationMs = loadingMs + activateMs;
  log.info(`Activated in ${activationMs.toFixed(1)} ms (loading ${loadingMs.toFixed(1)} ms, activate ${activateMs.toFixed(1)} ms; code cache ${load?.codeCache ?? "not used"})`);
  return {
    supervisor: primary.supervisor,
    chat: primary.chat,
    notices: primary.notices,
    status,
    sessions,
    attention,
    sessionsStatus,
    apiKeys,
    editorDialogs,
    review,
    checkpointStore: () => checkpoints.activeStore(),
    logFolder: context.logUri,
    workspaceFiles: files,
    activationMs,
    chatParticipantHandler: piChatHandler(participantTarget),
    vscodeUserDir,
  };
}

export async function deactivate(): Promise<void> {
  await activeSessions?.stopAll();
  extensionLifetime?.dispose();
  activeSessions = undefined;
  extensionLifetime = undefined;
}

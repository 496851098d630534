import * as path from "node:path";
import * as vscode from "vscode";
import { settings } from "../settings";
import type { EditorDialogs } from "../ui/editor-dialog";
import { bringQuestionForward, showNativeDialog } from "../ui/native-dialogs";
import type { AgentSession } from "./agent-session";
import type { SessionRegistry } from "./session-registry";
import type { SessionNode } from "./sessions-view";
import { terminalLaunch } from "./terminal-handoff";
import { createWorktree, gitRoot, worktreeBranch } from "./worktree";
import { notificationText } from "../ui/plain-text";
import { errorText } from "../../shared/error-text";

export interface SessionsCommandDeps {
  registry: SessionRegistry;
  log: vscode.LogOutputChannel;
  editorDialogs: EditorDialogs;
  /** Where worktrees of sessions go (the extension's global storage). */
  storage: vscode.Uri;
}


/** A command's session argument: an id, a row of the sessions list, or none (the active session). */
function sessionOf(registry: SessionRegistry, arg: unknown): AgentSession | undefined {
  if (typeof arg === "string") return registry.get(arg);
  if (arg && typeof arg === "object" && "session" in arg) return (arg as SessionNode).session;
  return registry.active;
}

/** Asks a pending question again with native UI (from the sessions list or a notification). */
export async function answerNatively(session: AgentSession, requestId: string, editors: EditorDialogs): Promise<void> {
  const pending = session.pending.list.find((d) => d.request.id === requestId);
  if (!pending) return void vscode.window.showInformationMessage("Pi: that question is no longer open.");
  // Already waiting for its turn in VS Code (or shown): next, not a second copy of it.
  if (bringQuestionForward(requestId)) return;
  const source = new vscode.CancellationTokenSource();
  const sub = session.pending.onDidChange(() => {
    if (!session.pending.list.some((d) => d.request.id === requestId)) source.cancel();
  });
  try {
    const answer = await showNativeDialog(pending.request, source.token, editors);
    if (!("cancelled" in answer)) session.pending.answer(requestId, answer);
  } finally {
    sub.dispose();
    source.dispose();
  }
}

/** Commands of parallel sessions: new ones in tabs or worktrees, the sessions list's actions, the terminal handoff. */
export function registerSessionsCommands(deps: SessionsCommandDeps): vscode.Disposable[] {
  const { registry, log } = deps;
  const withSession = (arg: unknown, action: (session: AgentSession) => unknown) => {
    const session = sessionOf(registry, arg);
    if (!session) return void vscode.window.showInformationMessage("Pi: that session is gone.");
    return action(session);
  };
  return [
    vscode.commands.registerCommand("pi.newSessionInTab", () => registry.openInTab().id),
    vscode.commands.registerCommand("pi.newSessionInWorktree", async () => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const root = folder ? await gitRoot(folder) : undefined;
      if (!root) return void vscode.window.showWarningMessage("Pi: a session in its own worktree needs a workspace inside a git repository.");
      try {
        const worktree = await createWorktree(root, path.join(deps.storage.fsPath, "worktrees"), worktreeBranch("session"));
        log.info(`Created worktree ${worktree.path} on branch ${worktree.branch}`);
        return registry.openInTab({ cwd: worktree.path, worktree }).id;
      } catch (error) {
        void vscode.window.showErrorMessage(`Pi: could not create a worktree: ${notificationText(errorText(error))}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand("pi.sessions.show", (arg?: unknown) => withSession(arg, (s) => s.reveal())),
    // A notice's Restart (agent-notices.ts): the agent of the session it is about, not the active one.
    vscode.commands.registerCommand("pi.sessions.restart", (arg?: unknown) =>
      withSession(arg, (s) =>
        s.supervisor.restart().catch((error: unknown) => {
          // In its chat when on screen (in place), else a notice again.
          if (!s.surface.visible) s.supervisor.noticeStartFailure(errorText(error));
        }),
      ),
    ),
    vscode.commands.registerCommand("pi.sessions.stop", (arg?: unknown) => withSession(arg, (s) => registry.close(s))),
    vscode.commands.registerCommand("pi.sessions.abort", (arg?: unknown) =>
      withSession(arg, (s) => s.supervisor.client?.request("abort", {}).catch((error: unknown) => log.warn(`Abort failed: ${errorText(error)}`))),
    ),
    vscode.commands.registerCommand("pi.sessions.answer", (sessionId?: unknown, requestId?: unknown) =>
      withSession(sessionId, async (s) => {
        const id = typeof requestId === "string" ? requestId : s.pending.list[0]?.request.id;
        if (id) await answerNatively(s, id, deps.editorDialogs);
      }),
    ),
    vscode.commands.registerCommand("pi.openInTerminal", (arg?: unknown) => withSession(arg, (s) => openInTerminal(s, log))),
  ];
}

/**
 * Opens the session in Pi's terminal UI (`pi --session FILE`); when that terminal closes, the
 * agent here reloads the file so the chat shows what was said there.
 */
export async function openInTerminal(session: AgentSession, log: vscode.LogOutputChannel): Promise<vscode.Terminal | undefined> {
  const file = session.sessionFile;
  if (!file) {
    void vscode.window.showInformationMessage("Pi: this session has no session file yet (send a message first, or the agent runs with --no-session).");
    return undefined;
  }
  if (session.activity === "running" || session.activity === "waiting") {
    const choice = await vscode.window.showWarningMessage("Pi is working in this session. Abort the run and open it in the terminal?", { modal: true }, "Abort and Open");
    if (choice !== "Abort and Open") return undefined;
    await session.supervisor.client?.request("abort", {});
  }
  const cwd = session.worktree?.path ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? path.dirname(file);
  const launch = terminalLaunch({ terminalCommand: settings.terminalCommand, agentCommand: settings.agentCommand, sessionFile: file, cwd, label: session.label });
  const terminal = vscode.window.createTerminal({ ...launch, env: settings.agentEnv });
  terminal.show();
  log.info(`Opened ${file} in the terminal: ${launch.shellPath} ${launch.shellArgs.join(" ")}`);
  const closed = vscode.window.onDidCloseTerminal(async (t) => {
    if (t !== terminal) return;
    closed.dispose();
    const client = session.supervisor.readyClient;
    if (!client) return;
    try {
      await client.request("switch_session", { sessionPath: file });
      await session.supervisor.agent.refresh(client);
      await session.chat.loadSession();
    } catch (error) {
      log.warn(`Reloading ${file} after the terminal closed failed: ${errorText(error)}`);
    }
  });
  return terminal;
}

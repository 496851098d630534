import * as vscode from "vscode";
import { visibleText } from "../../shared/visible-text";
import { markdownText } from "../ui/plain-text";
import { activityIcons, activityLabels } from "./activity";
import type { AgentSession } from "./agent-session";
import type { PendingDialog } from "./pending-dialogs";
import type { SessionRegistry } from "./session-registry";

export const SESSIONS_VIEW_ID = "pi.sessions";

/** A row of the sessions list: a session, or one of its pending dialogs. */
export type SessionNode = { kind: "session"; session: AgentSession } | { kind: "dialog"; session: AgentSession; dialog: PendingDialog };

/**
 * The "Sessions" list beside the chat: every agent of the window with its live activity
 * (running, waiting for you, done, failed), and under a waiting one the questions it asks, each
 * answerable from here.
 */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SessionNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly registry: SessionRegistry) {
    this.subscription = registry.onDidChange(() => this.changeEmitter.fire(undefined));
  }

  getChildren(node?: SessionNode): SessionNode[] {
    if (!node) return this.registry.all.map((session) => ({ kind: "session", session }));
    if (node.kind === "session") return node.session.pending.list.map((dialog) => ({ kind: "dialog", session: node.session, dialog }));
    return [];
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    if (node.kind === "dialog") return dialogItem(node.session, node.dialog);
    return sessionItem(node.session);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}

function sessionItem(session: AgentSession): vscode.TreeItem {
  const activity = session.activity;
  const collapsed = session.pending.size > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
  const item = new vscode.TreeItem(visibleText(session.label), collapsed);
  item.id = session.id;
  item.description = `${activityLabels[activity]} · ${session.description}`;
  item.iconPath = new vscode.ThemeIcon(activityIcons[activity]);
  // The name comes from the session file or the agent: escaped, never markup or a link.
  item.tooltip = new vscode.MarkdownString(
    [`**${markdownText(session.label)}**: ${activityLabels[activity]}`, session.sessionFile ? `Session file: ${markdownText(session.sessionFile)}` : "", session.worktree ? `Worktree: ${markdownText(session.worktree.path)}` : ""]
      .filter(Boolean)
      .join("\n\n"),
  );
  item.contextValue = `piSession.${session.place}.${activity}`;
  item.command = { command: "pi.sessions.show", title: "Show", arguments: [session.id] };
  return item;
}

function dialogItem(session: AgentSession, dialog: PendingDialog): vscode.TreeItem {
  const item = new vscode.TreeItem(visibleText(dialog.request.title), vscode.TreeItemCollapsibleState.None);
  item.id = `${session.id}/${dialog.request.id}`;
  item.description = dialog.request.method === "confirm" ? visibleText(dialog.request.message) : dialog.request.method;
  item.tooltip = `${visibleText(dialog.request.title)}${dialog.request.method === "confirm" ? `\n\n${visibleText(dialog.request.message)}` : ""}`;
  item.iconPath = new vscode.ThemeIcon("question");
  item.contextValue = "piSessionDialog";
  item.command = { command: "pi.sessions.answer", title: "Answer…", arguments: [session.id, dialog.request.id] };
  return item;
}

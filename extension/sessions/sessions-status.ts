import * as vscode from "vscode";
import { summarizeActivities } from "./activity";
import type { SessionRegistry } from "./session-registry";

/**
 * A status bar item for all sessions, shown while more than one exists: how many run, wait for
 * the user, finished unseen, or failed. Clicking it opens the sessions list.
 */
export class SessionsStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("pi.sessions", vscode.StatusBarAlignment.Left, 99);
  private readonly subscription: vscode.Disposable;
  /** The last text shown (for tests). */
  text = "";

  constructor(private readonly registry: SessionRegistry) {
    this.item.name = "Pi Sessions";
    // The view's own focus command (VS Code makes one for every view).
    this.item.command = "pi.sessions.focus";
    this.subscription = registry.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    const sessions = this.registry.all;
    const summary = summarizeActivities(sessions.map((s) => s.activity));
    this.text = `$(layers) ${sessions.length}${summary ? ` ${summary}` : ""}`;
    this.item.text = this.text;
    this.item.tooltip = sessions.map((s) => `${s.label}: ${s.activity}`).join("\n");
    const waiting = sessions.some((s) => s.activity === "waiting");
    this.item.backgroundColor = waiting ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    if (sessions.length > 1) this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

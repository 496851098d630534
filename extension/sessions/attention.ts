import * as vscode from "vscode";
import type { DialogRequest } from "../../shared/protocol";
import { notificationText } from "../ui/plain-text";
import { fitsQuickPick } from "../ui/whole-question";
import type { AgentSession } from "./agent-session";
import { answerForAction, dialogActions } from "./dialog-actions";
import type { SessionRegistry } from "./session-registry";

export type AttentionSetting = "whenUnfocused" | "always" | "never";

/** A notification shown for a session (kept for tests and the log). */
export interface AttentionNotice {
  sessionId: string;
  kind: "dialog" | "done" | "failed";
  message: string;
  actions: string[];
}

/**
 * Tells the user when a session needs them and they are not looking at it (the window or its
 * chat is not focused): a run ended, or the agent waits for an answer. Permission and other short
 * questions can be answered from the notification itself.
 */
export class SessionAttention implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Every notification shown, newest last. */
  readonly shown: AttentionNotice[] = [];

  constructor(
    registry: SessionRegistry,
    private readonly setting: () => AttentionSetting,
    private readonly answerNatively: (session: AgentSession, request: DialogRequest) => Promise<void>,
  ) {
    const watch = (session: AgentSession) => {
      this.subscriptions.push(
        session.pending.onDidChange(({ opened }) => opened && this.dialogOpened(session, opened.request)),
        session.onDidEndRun((outcome) => outcome !== "aborted" && this.runEnded(session, outcome)),
      );
    };
    for (const session of registry.all) watch(session);
    this.subscriptions.push(registry.onDidAdd(watch));
  }

  private wanted(session: AgentSession): boolean {
    const mode = this.setting();
    if (mode === "never") return false;
    if (mode === "always") return true;
    return !vscode.window.state.focused || !session.surface.visible;
  }

  private dialogOpened(session: AgentSession, request: DialogRequest): void {
    if (!this.wanted(session)) return;
    const actions = ["Show", ...dialogActions(request)];
    // The question in the message only when it is short enough to be read whole there.
    const whole = fitsQuickPick(request);
    const detail = whole && request.method === "confirm" ? `: ${request.message}` : "";
    const message = notificationText(`Pi: “${session.label}” is waiting for you: ${whole ? request.title : "a question too long to show here"}${detail}`);
    this.record({ sessionId: session.id, kind: "dialog", message, actions });
    void vscode.window.showWarningMessage(message, ...actions).then(async (action) => {
      if (!action) return;
      if (action === "Show") return session.reveal();
      const answer = answerForAction(request, action);
      if (answer === "ask") return this.answerNatively(session, request);
      if (!session.pending.answer(request.id, answer)) void vscode.window.showInformationMessage("Pi: that question is no longer open; your answer was not used.");
    });
  }

  private runEnded(session: AgentSession, outcome: "done" | "failed"): void {
    if (!this.wanted(session)) return;
    const label = notificationText(session.label);
    const message = outcome === "failed" ? `Pi: “${label}” stopped with an error.` : `Pi: “${label}” finished.`;
    this.record({ sessionId: session.id, kind: outcome, message, actions: ["Show"] });
    const show = outcome === "failed" ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    void show(message, "Show").then((action) => action && session.reveal());
  }

  private record(notice: AttentionNotice): void {
    this.shown.push(notice);
    if (this.shown.length > 50) this.shown.shift();
  }

  dispose(): void {
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

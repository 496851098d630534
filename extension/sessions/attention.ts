import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import { closableNotice } from "../ui/closable-notice";
import type { DialogRequest } from "../../shared/protocol";
import { notificationText } from "../ui/plain-text";
import { fitsQuickPick } from "../ui/whole-question";
import { windowFocus } from "../ui/window-focus";
import type { AgentSession } from "./agent-session";
import { answerForAction, dialogActions } from "./dialog-actions";
import type { SessionRegistry } from "./session-registry";

/** The command of a question notice's links (not in the palette). */
const ANSWER_FROM_NOTICE = "pi.sessions.answerFromNotice";

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
  /** The questions' notices on screen, by the token their links carry. */
  private readonly notices = new Map<string, { session: AgentSession; request: DialogRequest; actions: string[]; close(): void }>();

  constructor(
    private readonly registry: SessionRegistry,
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
    this.subscriptions.push(
      registry.onDidAdd(watch),
      vscode.commands.registerCommand(ANSWER_FROM_NOTICE, (token: unknown, index: unknown) => this.answerFromNotice(token, index)),
    );
  }

  private wanted(session: AgentSession): boolean {
    const mode = this.setting();
    if (mode === "never") return false;
    if (mode === "always") return true;
    return !windowFocus.focused || !session.surface.visible;
  }

  /**
   * A question waits and the user is not looking: a notice with its short answers as links, closed
   * as soon as the question is (answered in its quick pick, the chat or here, cancelled, its run
   * aborted). A plain message stayed and offered answers to a question no longer asked.
   */
  private dialogOpened(session: AgentSession, request: DialogRequest): void {
    if (!this.wanted(session)) return;
    const actions = ["Show", ...dialogActions(request)];
    // The question in the message only when it is short enough to be read whole there.
    const whole = fitsQuickPick(request);
    const detail = whole && request.method === "confirm" ? `: ${request.message}` : "";
    const message = notificationText(`Pi: “${session.label}” is waiting for you: ${whole ? request.title : "a question too long to show here"}${detail}`);
    this.record({ sessionId: session.id, kind: "dialog", message, actions });
    // The links carry a token of this notice alone: no other text can make a link that answers.
    const token = randomUUID();
    const isOpen = () => session.pending.list.some((d) => d.request.id === request.id);
    const notice = closableNotice(message, actions.map((label, i) => ({ label, command: ANSWER_FROM_NOTICE, args: [token, i] })));
    // Gone too with its session (closed, its agent stopped): its questions with it.
    const stillThere = () => isOpen() && this.registry.get(session.id) !== undefined;
    const watches = [session.pending.onDidChange(() => !stillThere() && close()), this.registry.onDidChange(() => !stillThere() && close())];
    const close = () => {
      for (const watch of watches) watch.dispose();
      notice.dispose();
      this.notices.delete(token);
    };
    this.notices.set(token, { session, request, actions, close });
  }

  /** A link of a question's notice: Show, an answer, or Answer… (the question's quick pick). */
  private async answerFromNotice(token: unknown, index: unknown): Promise<void> {
    const notice = typeof token === "string" ? this.notices.get(token) : undefined;
    const action = notice && typeof index === "number" ? notice.actions[index] : undefined;
    if (!notice || !action) return void vscode.window.showInformationMessage("Pi: that question is no longer open; your answer was not used.");
    const { session, request } = notice;
    if (action === "Show") return session.reveal();
    const answer = answerForAction(request, action);
    if (answer === "ask") return this.answerNatively(session, request);
    if (!session.pending.answer(request.id, answer)) void vscode.window.showInformationMessage("Pi: that question is no longer open; your answer was not used.");
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
    for (const notice of [...this.notices.values()]) notice.close();
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

import type * as vscode from "vscode";
import { toggleDone } from "../../shared/plan-edits";
import type { FromWebview, ToWebview } from "../../shared/webview-protocol";
import type { ChatChanges, ChatPlan } from "./session-actions";

type AboveBoxMessage = Extract<FromWebview, { type: "planToggle" | "changes" }>;

/**
 * What the chat shows above its message box besides the queue: the session's plan and the
 * changes waiting for review, kept up to date, and what the user does with them there.
 */
export class AboveBox implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly post: (message: ToWebview) => void,
    private readonly plan: ChatPlan | undefined,
    private readonly changes: ChatChanges | undefined,
  ) {
    if (plan) this.subscriptions.push(plan.onDidChange(() => this.postPlan()));
    if (changes) this.subscriptions.push(changes.onDidChange(() => this.postChanges()));
  }

  /** Everything, for a webview that (re)loaded. */
  show(): void {
    this.postPlan();
    this.postChanges();
  }

  /** A task marked done (or not) in the chat, or a button of the changes line. */
  async handle(message: AboveBoxMessage): Promise<void> {
    if (message.type === "planToggle") {
      if (this.plan) await this.plan.edit(toggleDone(this.plan.phases, message));
      return;
    }
    await this.changes?.act(message.action);
  }

  private postPlan(): void {
    if (this.plan) this.post({ type: "plan", phases: [...this.plan.phases] });
  }

  private postChanges(): void {
    if (this.changes) this.post({ type: "changes", summary: this.changes.summary() });
  }

  dispose(): void {
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

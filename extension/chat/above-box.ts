import type * as vscode from "vscode";
import { toggleDone } from "../../shared/plan-edits";
import type { FromWebview, ToWebview } from "../../shared/webview-protocol";
import type { ChatChanges, ChatPlan, ChatSessionActions } from "./session-actions";

type AboveBoxMessage = Extract<FromWebview, { type: "planToggle" | "planAction" | "changes" }>;

/**
 * What the chat shows above its message box besides the queue: the session's plan (with the
 * decision it waits for in plan mode) and the changes waiting for review, kept up to date, and
 * what the user does with them there.
 */
export class AboveBox implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly post: (message: ToWebview) => void,
    private readonly plan: ChatPlan | undefined,
    private readonly changes: ChatChanges | undefined,
    private readonly actions: Pick<ChatSessionActions, "approvePlan" | "editPlan"> | undefined,
  ) {
    if (plan) this.subscriptions.push(plan.onDidChange(() => this.postPlan()));
    if (changes) this.subscriptions.push(changes.onDidChange(() => this.postChanges()));
  }

  /** Everything, for a webview that (re)loaded. */
  show(): void {
    this.postPlan();
    this.postChanges();
  }

  /** A task marked done (or not) in the chat, the plan's decision, or a button of the changes line. */
  async handle(message: AboveBoxMessage): Promise<void> {
    switch (message.type) {
      case "planToggle":
        if (this.plan) await this.plan.edit(toggleDone(this.plan.phases, message));
        return;
      case "planAction":
        return this.planAction(message.action);
      case "changes":
        await this.changes?.act(message.action);
        return;
    }
  }

  /** The same as the palette's Approve Plan and Keep Planning, for this chat's session. */
  private async planAction(action: Extract<AboveBoxMessage, { type: "planAction" }>["action"]): Promise<void> {
    if (action === "approve") return void (await this.actions?.approvePlan());
    if (action === "edit") return void (await this.actions?.editPlan());
    this.plan?.keepPlanning();
    this.post({ type: "focus" });
  }

  private postPlan(): void {
    if (this.plan) this.post({ type: "plan", phases: [...this.plan.phases], awaitingApproval: this.plan.awaitingApproval });
  }

  private postChanges(): void {
    if (this.changes) this.post({ type: "changes", summary: this.changes.summary() });
  }

  dispose(): void {
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

import { Emitter, type Disposable } from "vscode-jsonrpc";
import type { AgentStatus } from "../../shared/webview-protocol";
import type { PermissionMode } from "../../shared/protocol";

type Listen = (listener: () => void) => Disposable;

/** What the decision follows: the session's permission mode and its run status (AgentState). */
export interface PlanDecisionSource {
  readonly permissionMode: PermissionMode | undefined;
  readonly status: AgentStatus;
  /** The last run ended with the agent's answer (not aborted, failed or cut short). */
  readonly lastRunAnswered: boolean;
  readonly onDidChange: Listen;
  /** The agent works on another session (new, switched, forked): its answers were not to this plan. */
  readonly onDidChangeSession: Listen;
}

/**
 * Whether the chat offers the plan's decision (Approve plan, Keep planning) under the plan: the
 * agent is in plan mode, idle, and its last run ended with its answer (not a crash, an Abort, a
 * failed request or a reply cut short: a plan it never finished) since plan mode began, since the
 * user last chose Keep planning, or since the session changed. Leaving plan mode (Approve plan,
 * any mode picker) takes the offer back.
 */
export class PlanDecision implements Disposable {
  private readonly changeEmitter = new Emitter<void>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly subscriptions: Disposable[];
  /** The agent answered in plan mode (a run went by) and the user has not chosen yet. */
  private answered = false;
  private running = false;
  private offered = false;

  constructor(private readonly source: PlanDecisionSource) {
    this.subscriptions = [
      source.onDidChange(() => this.update()),
      source.onDidChangeSession(() => this.keepPlanning()),
    ];
    this.update();
  }

  /** The chat shows Approve plan and Keep planning now. */
  get awaitingApproval(): boolean {
    return this.offered;
  }

  /** The user keeps planning: the offer waits for the agent's next answer. */
  keepPlanning(): void {
    this.answered = false;
    this.update();
  }

  private update(): void {
    const planning = this.source.permissionMode === "plan";
    const { status } = this.source;
    const running = status === "running";
    if (!planning) this.answered = false;
    // A run under way revises the plan: the answer before it is not the one to approve (a crash of it leaves none).
    else if (running) this.answered = false;
    else if (this.running && status === "idle") this.answered = this.source.lastRunAnswered;
    this.running = planning && running;
    const offered = planning && status === "idle" && this.answered;
    if (offered === this.offered) return;
    this.offered = offered;
    this.changeEmitter.fire();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
  }
}

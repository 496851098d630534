import * as vscode from "vscode";
import type { TodoPhase } from "../../shared/protocol";
import type { RpcClient } from "../../shared/rpc";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { Lifetime } from "../lifetime";
import { PlanDecision } from "./plan-decision";

const statuses = new Set(["pending", "in_progress", "completed", "abandoned"]);

/** get_state's todoPhases is loosely typed on the wire: keep the phases that have the seed's shape. */
function phasesOf(value: unknown): TodoPhase[] {
  if (!Array.isArray(value)) return [];
  return value.filter((p): p is TodoPhase => {
    const phase = p as Partial<TodoPhase> | null;
    return typeof phase?.id === "string" && typeof phase.name === "string" && Array.isArray(phase.tasks) &&
      phase.tasks.every((t) => typeof t?.id === "string" && typeof t.content === "string" && statuses.has(t.status));
  });
}

/**
 * One session's plan (seed 001's todos): kept from `todo_update` events and get_state's
 * `todoPhases`; the user's edits go to the agent with `set_todos` (our host then tells the model,
 * before its next call). Also whether the plan waits for the user's decision (PlanDecision).
 */
export class PlanState implements vscode.Disposable {
  private current: TodoPhase[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** The phases or the decision changed. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly decision: PlanDecision;
  private readonly decisionChanged: vscode.Disposable;

  constructor(private readonly supervisor: AgentSupervisor) {
    this.decision = new PlanDecision({
      get permissionMode() {
        return supervisor.state?.permissionMode;
      },
      get status() {
        return supervisor.status;
      },
      get lastRunAnswered() {
        return supervisor.agent.lastRunEnd === "stop";
      },
      onDidChange: supervisor.agent.onDidChange,
      onDidChangeSession: supervisor.agent.onDidChangeSession,
    });
    this.decisionChanged = this.decision.onDidChange(() => this.changeEmitter.fire());
  }

  get phases(): readonly TodoPhase[] {
    return this.current;
  }

  /** The agent in plan mode has answered: the chat offers Approve plan and Keep planning. */
  get awaitingApproval(): boolean {
    return this.decision.awaitingApproval;
  }

  /** The user keeps planning (stays in plan mode): the offer waits for the agent's next answer. */
  keepPlanning(): void {
    this.decision.keepPlanning();
  }

  /** The agent keeps a plan (`set_todos`): its plan can be shown and edited. */
  get supported(): boolean {
    return this.supervisor.capabilities?.todos === true;
  }

  attach(client: RpcClient, lifetime: Lifetime): void {
    lifetime.add(client.onEvent((event) => {
      if (event.type === "todo_update") this.set(phasesOf(event.phases));
    }));
    lifetime.add(this.supervisor.agent.onDidChangeSession(({ state }) => this.set(phasesOf(state.todoPhases))));
  }

  private set(phases: TodoPhase[]): void {
    if (JSON.stringify(phases) === JSON.stringify(this.current)) return;
    this.current = phases;
    this.changeEmitter.fire();
  }

  /** The user changed the plan: the agent gets it. */
  async edit(phases: TodoPhase[]): Promise<void> {
    const client = await this.supervisor.ensureStarted();
    const answer = await client.request("set_todos", { phases });
    this.set(Array.isArray(answer) ? answer : answer.phases);
  }

  dispose(): void {
    this.decisionChanged.dispose();
    this.decision.dispose();
    this.changeEmitter.dispose();
  }
}

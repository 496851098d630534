import * as vscode from "vscode";
import type { TodoPhase } from "../../shared/protocol";
import type { RpcClient } from "../../shared/rpc";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { Lifetime } from "../lifetime";

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
 * before its next call).
 */
export class PlanState implements vscode.Disposable {
  private current: TodoPhase[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly supervisor: AgentSupervisor) {}

  get phases(): readonly TodoPhase[] {
    return this.current;
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
    this.changeEmitter.dispose();
  }
}

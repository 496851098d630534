/**
 * todo: the agent's plan as phases of tasks (seed 001 / oh-my-pi). The list lives with the host
 * (get_state's todoPhases, set_todos); the tool replaces it and answers with the list as text.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool } from "../agent/tool";
import { checkToolArguments } from "../agent/validate-arguments";

const Status = Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed"), Type.Literal("abandoned")]);
const Task = Type.Object({ id: Type.Optional(Type.String()), content: Type.String(), status: Status });
const Phase = Type.Object({ id: Type.Optional(Type.String()), name: Type.String(), tasks: Type.Array(Task) });
export const todoSchema = Type.Object({
  phases: Type.Array(Phase, { description: "The whole plan: every phase with all its tasks (replaces the previous list)" }),
});
export type TodoInput = Static<typeof todoSchema>;

export interface TodoPhaseState {
  id: string;
  name: string;
  tasks: { id: string; content: string; status: Static<typeof Status> }[];
}

export interface TodoStore {
  get(): TodoPhaseState[];
  set(phases: TodoPhaseState[]): void;
}

/** Gives every phase and task an id (kept when given). */
export function normalizeTodos(phases: TodoInput["phases"]): TodoPhaseState[] {
  return phases.map((phase, p) => ({
    id: phase.id ?? `phase-${p + 1}`,
    name: phase.name,
    tasks: phase.tasks.map((task, t) => ({ id: task.id ?? `task-${p + 1}-${t + 1}`, content: task.content, status: task.status })),
  }));
}

const mark = { pending: "[ ]", in_progress: "[~]", completed: "[x]", abandoned: "[-]" } as const;

export function formatTodos(phases: TodoPhaseState[]): string {
  if (phases.length === 0) return "The todo list is empty.";
  return phases.map((phase) => [`${phase.name}:`, ...phase.tasks.map((t) => `  ${mark[t.status]} ${t.content}`)].join("\n")).join("\n");
}

/** A plan recorded in a session (a todo call's details, the user's edit): checked against the tool's own schema, since session files are foreign data. */
export function recordedTodos(details: unknown): TodoPhaseState[] | undefined {
  if (typeof details !== "object" || details === null || !("phases" in details)) return undefined;
  const checked = checkToolArguments("todo", todoSchema, { phases: details.phases });
  return checked.ok ? normalizeTodos((checked.args as TodoInput).phases) : undefined;
}

export function createTodoTool(store: TodoStore): AgentTool<typeof todoSchema, { phases: TodoPhaseState[] }> {
  return {
    name: "todo",
    label: "Todo",
    description:
      "Keep a plan for multi-step work: send the whole list of phases and tasks each time, with each task's status (pending, in_progress, completed, abandoned). Keep one task in_progress at a time.",
    parameters: todoSchema,
    sequential: true,
    async execute(_id, params) {
      const phases = normalizeTodos(params.phases);
      store.set(phases);
      return { content: [{ type: "text", text: formatTodos(phases) }], details: { phases } };
    },
  };
}

/**
 * The plan (seed 001's todo phases) as data, and the user's edits of it: plain functions over
 * `TodoPhase[]`, each returning a new list, so the view and the tests share one meaning.
 */
import type { TodoPhase } from "./protocol";

export type TodoStatus = TodoPhase["tasks"][number]["status"];
export interface TaskRef {
  phaseId: string;
  taskId: string;
}

export function progress(phases: readonly TodoPhase[]): { done: number; total: number } {
  const tasks = phases.flatMap((p) => p.tasks).filter((t) => t.status !== "abandoned");
  return { done: tasks.filter((t) => t.status === "completed").length, total: tasks.length };
}

function mapTasks(phases: readonly TodoPhase[], ref: TaskRef, change: (tasks: TodoPhase["tasks"], index: number) => TodoPhase["tasks"]): TodoPhase[] {
  return phases.map((phase) => {
    if (phase.id !== ref.phaseId) return phase;
    const index = phase.tasks.findIndex((t) => t.id === ref.taskId);
    return index < 0 ? phase : { ...phase, tasks: change(phase.tasks, index) };
  });
}

/** Done ↔ pending (an in-progress or abandoned task becomes done). */
export function toggleDone(phases: readonly TodoPhase[], ref: TaskRef): TodoPhase[] {
  return mapTasks(phases, ref, (tasks, i) => tasks.map((t, j) => (j === i ? { ...t, status: t.status === "completed" ? "pending" : "completed" } : t)));
}

export function renameTask(phases: readonly TodoPhase[], ref: TaskRef, content: string): TodoPhase[] {
  return mapTasks(phases, ref, (tasks, i) => tasks.map((t, j) => (j === i ? { ...t, content } : t)));
}

export function removeTask(phases: readonly TodoPhase[], ref: TaskRef): TodoPhase[] {
  return mapTasks(phases, ref, (tasks, i) => tasks.filter((_, j) => j !== i));
}

/** Moves a task one place up (-1) or down (+1) within its phase; at an end it stays. */
export function moveTask(phases: readonly TodoPhase[], ref: TaskRef, by: -1 | 1): TodoPhase[] {
  return mapTasks(phases, ref, (tasks, i) => {
    const j = i + by;
    if (j < 0 || j >= tasks.length) return tasks;
    const next = [...tasks];
    [next[i], next[j]] = [next[j]!, next[i]!];
    return next;
  });
}

/** A pending task at the end of a phase (the last phase, or a new "Todos" phase when there is none). */
export function addTask(phases: readonly TodoPhase[], content: string, phaseId?: string): TodoPhase[] {
  const ids = new Set(phases.flatMap((p) => p.tasks.map((t) => t.id)));
  let n = ids.size + 1;
  while (ids.has(`user-${n}`)) n++;
  const task = { id: `user-${n}`, content, status: "pending" as const };
  if (phases.length === 0) return [{ id: "phase-1", name: "Todos", tasks: [task] }];
  const target = phaseId ?? phases.at(-1)!.id;
  return phases.map((p) => (p.id === target ? { ...p, tasks: [...p.tasks, task] } : p));
}

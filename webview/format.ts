/** Formatting for the chat's small print: tokens, cost, durations, tool summaries. */

export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "0";
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

export function formatCost(cost: number): string {
  if (!Number.isFinite(cost) || cost <= 0) return "$0.00";
  if (cost < 0.01) return `$${cost.toFixed(4).replace(/0+$/, "")}`;
  return `$${cost.toFixed(2)}`;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
}

/** Seconds left, rounded up, for a dialog's countdown. */
export function formatCountdown(msLeft: number): string {
  return `${Math.max(0, Math.ceil(msLeft / 1000))} s`;
}

type Args = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** One line saying what a tool call does, e.g. the command of bash or the path of read. */
export function toolSummary(name: string, args: unknown): string {
  const a: Args = args && typeof args === "object" ? (args as Args) : {};
  const path = str(a.path) ?? str(a.file_path);
  switch (name) {
    case "bash":
      return str(a.command) ?? "";
    case "read": {
      if (!path) break;
      const offset = typeof a.offset === "number" ? a.offset : undefined;
      const limit = typeof a.limit === "number" ? a.limit : undefined;
      if (offset === undefined && limit === undefined) return path;
      const from = offset ?? 1;
      return limit === undefined ? `${path}:${from}` : `${path}:${from}-${from + limit - 1}`;
    }
    case "edit":
    case "write":
    case "ls":
      if (path) return path;
      if (typeof a.input === "string") return patchSummary(a.input);
      break;
    case "todo":
    case "todo_write": {
      const plan = planSummary(a);
      if (plan) return plan;
      break;
    }
    case "grep":
    case "find": {
      const pattern = str(a.pattern) ?? "";
      return path ? `${pattern} in ${path}` : pattern;
    }
  }
  return oneLine(compactJson(a), 160);
}

const tasksOf = (phases: unknown[], field: string): unknown[] => phases.flatMap((p) => (p && typeof p === "object" && Array.isArray((p as Args)[field]) ? ((p as Args)[field] as unknown[]) : []));

/**
 * "Plan: 3 tasks (1 done)" from the todo tool's phases (ours, pi's), a flat list, or omp's
 * operations (`init` with a list of phases, `done` of one task, …).
 */
function planSummary(a: Args): string | undefined {
  const op = str(a.op);
  const tasks = Array.isArray(a.phases) ? tasksOf(a.phases as unknown[], "tasks") : Array.isArray(a.todos) ? (a.todos as unknown[]) : Array.isArray(a.list) ? tasksOf(a.list as unknown[], "items") : Array.isArray(a.items) ? (a.items as unknown[]) : undefined;
  if (op && (!tasks || op !== "init")) return oneLine(`Plan: ${op}${str(a.task) ? ` ${str(a.task)}` : tasks ? ` ${tasks.length} task${tasks.length === 1 ? "" : "s"}` : str(a.phase) ? ` ${str(a.phase)}` : ""}`, 160);
  if (!tasks) return undefined;
  const done = tasks.filter((t) => t && typeof t === "object" && (t as Args).status === "completed").length;
  return `Plan: ${tasks.length} task${tasks.length === 1 ? "" : "s"}${done ? ` (${done} done)` : ""}`;
}

/** The files of a patch-form edit (omp's hashline `[path#TAG]` headers, apply_patch's `*** Update File: path`), else its first line. */
function patchSummary(input: string): string {
  const files = new Set<string>();
  for (const match of input.matchAll(/^(?:\*\*\* (?:Add|Update|Delete) File: (.+)|\[([^\]#\n]+)#[0-9a-fA-F]{4}\])\s*$/gm)) files.add((match[1] ?? match[2]).trim());
  const shown = [...files];
  if (shown.length > 0) return oneLine(shown.slice(0, 3).join(", ") + (shown.length > 3 ? ` +${shown.length - 3}` : ""), 160);
  return oneLine(input.split("\n").find((line) => line.trim() !== "" && !line.startsWith("*** Begin")) ?? "", 160);
}

export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

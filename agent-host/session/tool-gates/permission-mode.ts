/**
 * Permission modes (ours; the editor switches them per session): how much the agent may do
 * without asking. `ask` asks as configured (--confirm-tools); `acceptEdits` lets edit/write run
 * without a question (bash still asks); `plan` lets only read-only tools run, every other call is
 * refused with a reason the model reads; `auto` asks nothing.
 */
import { planRefusal, type PermissionMode } from "../../../shared/protocol";
import type { BeforeToolCallResult } from "../../agent/types";
import type { ToolCall } from "../../ai/types";

/** Tools that change nothing: the built-in readers, the plan itself, the editor's reading host tools. */
export const readOnlyTools: ReadonlySet<string> = new Set([
  "read", "grep", "find", "ls", "todo",
  "editor_read", "editor_diagnostics", "editor_active", "editor_open_editors", "editor_symbols", "editor_definition", "editor_references", "editor_hover",
]);

const editTools = new Set(["edit", "write"]);

/**
 * Refuses what the mode does not allow (plan: anything not read-only, unknown tools included).
 * `alsoReadOnly`: tools known read-only otherwise (MCP tools whose server says readOnlyHint).
 */
export function createModeGate(mode: () => PermissionMode, alsoReadOnly: (tool: string) => boolean = () => false) {
  return async (call: ToolCall): Promise<BeforeToolCallResult> =>
    mode() === "plan" && !readOnlyTools.has(call.name) && !alsoReadOnly(call.name) ? { block: true, reason: planRefusal(call.name) } : undefined;
}

/** The mode lets this tool run without the permission question. */
export function runsWithoutAsking(mode: PermissionMode, tool: string): boolean {
  return mode === "auto" || (mode === "acceptEdits" && editTools.has(tool));
}

/** What the model is told when the mode changes, if anything. */
export function modeChangeNote(from: PermissionMode, to: PermissionMode): string | undefined {
  if (to === "plan" && from !== "plan") return "The user switched to plan mode: only read-only tools run now. Investigate and propose a plan (the todo tool keeps it); nothing may change until the user approves it.";
  // Leaving plan mode is not approving the plan (the user may only be cycling modes): approval is the user's own message.
  if (from === "plan" && to !== "plan") return `The user left plan mode (${to === "ask" ? "risky tools ask first" : to === "acceptEdits" ? "file edits run without asking" : "nothing asks"}). This alone does not approve the plan: act on it only when the user says so.`;
  return undefined;
}

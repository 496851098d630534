/**
 * The todo list belongs to a session's branch (seed 001: "the current session"): after a new
 * session, a switch, a fork or a branch it is the last plan recorded on the branch now (a todo
 * call's result, the user's edit of the plan), or empty. Before, a new session kept the old one's
 * plan in the chat and in get_state (#32 trial).
 */
import type { SessionEntry } from "../../shared/session-format/schema";
import { recordedTodos, type TodoPhaseState } from "../tools/todo";

export function todosOfBranch(branch: readonly SessionEntry[]): TodoPhaseState[] {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.type === "message" && entry.message.role === "toolResult" && entry.message.toolName === "todo" && !entry.message.isError) {
      const phases = recordedTodos(entry.message.details);
      if (phases) return phases;
    }
    if (entry.type === "custom_message" && entry.customType === "plan") {
      const phases = recordedTodos(entry.details);
      if (phases) return phases;
    }
  }
  return [];
}

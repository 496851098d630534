/**
 * An entry that cannot be written to the session file (JSON.stringify fails: nested too deeply
 * for its recursion, a BigInt, a cycle) must not break the session. The session manager refuses
 * it with this error and keeps its tree as on disk; a message is then replaced, in place, by a
 * notice saying why, which is saved instead, so the run goes on and the next prompt works.
 */
import type { AgentMessage } from "../../agent/types";
import { errorText } from "../../../shared/error-text";

export class UnpersistableEntryError extends Error {
  constructor(type: string, cause: unknown) {
    const why = cause instanceof RangeError ? "its content nests too deeply to be saved" : `it cannot be saved as JSON (${errorText(cause)})`;
    super(`A ${type} entry was not written to the session file: ${why}.`);
  }
}

/** Replaces what could not be saved with `notice`, keeping the message's role and ids. */
export function replaceWithNotice(message: AgentMessage, notice: string): void {
  const text = [{ type: "text" as const, text: notice }];
  switch (message.role) {
    case "assistant":
      message.content = text;
      message.stopReason = "error";
      message.errorMessage = notice;
      break;
    case "toolResult":
      message.content = text;
      message.isError = true;
      delete message.details;
      break;
    case "custom":
      message.content = text;
      delete message.details;
      break;
    case "user":
      message.content = text;
      break;
    case "bashExecution":
      message.output = notice;
      break;
    case "branchSummary":
    case "compactionSummary":
      message.summary = notice;
      break;
  }
}

/**
 * A Pi extension (built to dist/pi-checkpoints.mjs, never part of the VS Code extension's own
 * bundle): the editor loads it with `-e` into pi and other Pi-compatible agents it launches, so
 * that their write and edit tools record the file in the checkpoint store in `tool_call`, before
 * the tool runs. Watching tool_execution_start from the editor instead races the tool and loses.
 *
 * The store comes in $PI_VSCODE_CHECKPOINT_DIR. A tool_call handler that throws blocks the tool
 * (Pi's fail-safe), so nothing here throws: a failed record is written as `unreadable`, which the
 * rewind shows as a file it cannot restore.
 */
import { CHECKPOINT_DIR_ENV, DEFAULT_MAX_FILE_BYTES } from "../../shared/checkpoints/schema";
import { createCheckpointRecorder, type CheckpointRecorder } from "../../shared/node/checkpoint-store";
import { FILE_CHANGING_TOOLS, toolTargetPath } from "../../shared/node/checkpoint-target";
import { errorText } from "../../shared/error-text";

/** The parts of Pi's ExtensionAPI and context used here (structural: pi is not a dependency). */
interface SessionEntry {
  type: string;
  id: string;
  message?: { role?: string };
}
interface ToolCallContext {
  cwd: string;
  sessionManager: { getSessionId(): string; getBranch(): SessionEntry[] };
}
interface ToolCallEvent {
  toolName: string;
  input: unknown;
}
interface PiExtensionApi {
  on(event: "tool_call", handler: (event: ToolCallEvent, ctx: ToolCallContext) => undefined | Promise<undefined>): void;
}

/** The entry id of the last user message on the branch: the turn the record belongs to. */
function currentTurn(branch: SessionEntry[]): string | undefined {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry.type === "message" && entry.message?.role === "user") return entry.id;
  }
  return undefined;
}

export default function piCheckpoints(pi: PiExtensionApi): void {
  const dir = process.env[CHECKPOINT_DIR_ENV];
  if (!dir) return;
  let record: CheckpointRecorder | undefined;
  pi.on("tool_call", (event, ctx) => {
    if (!FILE_CHANGING_TOOLS.has(event.toolName)) return undefined;
    let target: string | undefined;
    try {
      target = toolTargetPath(event.input, ctx.cwd);
      const turn = currentTurn(ctx.sessionManager.getBranch());
      if (!target || !turn) return undefined;
      record ??= createCheckpointRecorder(dir, DEFAULT_MAX_FILE_BYTES);
      const sessionId = ctx.sessionManager.getSessionId();
      try {
        record(sessionId, turn, target);
      } catch {
        // The copy failed (a full disk?): say so in the manifest rather than nothing.
        record(sessionId, turn, target, () => ({ skipped: "unreadable" }));
      }
    } catch (error) {
      process.stderr.write(`pi-checkpoints: could not record ${target ?? "a file"}: ${errorText(error)}\n`);
    }
    return undefined;
  });
}

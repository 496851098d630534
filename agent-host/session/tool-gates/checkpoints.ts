/**
 * `--checkpoint-dir`: before the write and edit tools change a file, its content is recorded in
 * the checkpoint store (shared/checkpoints), under the session and the user message that began
 * the turn, so the editor can rewind the files to any user message. The record is made in the
 * tool's own call, right before it runs: nothing can change the file in between.
 */
import { DEFAULT_MAX_FILE_BYTES } from "../../../shared/checkpoints/schema";
import { createCheckpointRecorder } from "../../../shared/node/checkpoint-store";
import { realPathOf, resolvesInside } from "../../../shared/node/real-path";
import type { AnyAgentTool } from "../../agent/tool";
import { resolveToCwd } from "../../tools/paths";
import type { SessionManager } from "../persistence/session-manager";
import { errorText } from "../../../shared/error-text";

/** Tools whose `path` argument names the one file they change. */
const FILE_TOOLS = new Set(["write", "edit"]);

/** The entry id of the last user message on the current branch: the turn being recorded. */
export function currentTurn(sessions: SessionManager): string | undefined {
  const branch = sessions.branch();
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry.type === "message" && entry.message.role === "user") return entry.id;
  }
  return undefined;
}

/** The tools, with write and edit recording the file before they change it. */
export function withCheckpoints(tools: AnyAgentTool[], sessions: SessionManager, dir: string, cwd: string, warn: (message: string) => void): AnyAgentTool[] {
  const record = createCheckpointRecorder(dir, DEFAULT_MAX_FILE_BYTES);
  const realCwd = realPathOf(cwd);
  return tools.map((tool) => {
    if (!FILE_TOOLS.has(tool.name)) return tool;
    const execute: AnyAgentTool["execute"] = (id, params, signal, onUpdate) => {
      const target = (params as { path?: unknown }).path;
      const turn = currentTurn(sessions);
      const file = typeof target === "string" ? resolveToCwd(target, cwd) : undefined;
      // Only what a rewind may restore, the workspace's files: the store is readable elsewhere, and
      // a call naming a secret outside (a key the sandbox hides) would have it copied there.
      if (file !== undefined && turn && resolvesInside([realCwd], file)) {
        try {
          record(sessions.sessionId, turn, file);
        } catch (error) {
          // A full disk must not stop the agent: the file is changed without a checkpoint.
          warn(`Checkpoint of ${target} failed: ${errorText(error)}`);
        }
      }
      return tool.execute(id, params, signal, onUpdate);
    };
    return { ...tool, execute };
  });
}

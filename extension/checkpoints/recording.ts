/**
 * Records files the agent is about to change when the agent cannot record them itself: the
 * editor's own editor_edit (its buffer as the user sees it, unsaved changes included), and for
 * other agents (pi, omp: `pi.agent.command`) their write and edit tools as a fallback. The
 * bundled host, and other agents through the Pi extension dist/pi-checkpoints.mjs, record before
 * their tools run; the record made here when tool_execution_start arrives races the tool, so it
 * is marked `late` (the earlier record wins in a rewind, and a late one alone is not trusted).
 */
import * as vscode from "vscode";
import { loadedThroughCommandLink } from "../save-guard/save-guard";
import { DEFAULT_MAX_FILE_BYTES } from "../../shared/checkpoints/schema";
import { captureText, createCheckpointRecorder, type Captured } from "../../shared/node/checkpoint-store";
import { captureTarget, FILE_CHANGING_TOOLS, toolTargetPath } from "../../shared/node/checkpoint-target";
import type { AgentAttach } from "../supervision/supervisor-options";
import { errorText } from "../../shared/error-text";

export interface RecordingOptions {
  /** The store; undefined while checkpoints are off. */
  store(): string | undefined;
  /** The agent's working directory (the base of relative paths). */
  cwd(): string;
  /** The agent records write and edit itself (the bundled host with --checkpoint-dir). */
  agentRecords(): boolean;
  /** Sessions with a live agent (their manifests are never pruned). */
  live: Set<string>;
  log: vscode.LogOutputChannel;
}

/** The file a tool call changes, when it is one of the tools recorded here (and in the workspace: toolTargetPath). */
export function changedFile(toolName: string, args: unknown, cwd: string, agentRecords: boolean): string | undefined {
  if (toolName !== "editor_edit" && (agentRecords || !FILE_CHANGING_TOOLS.has(toolName))) return undefined;
  return toolTargetPath(args, cwd);
}

/**
 * A document's buffer if it holds unsaved changes, else the file on disk as really opened
 * (captureTarget). A loaded buffer without changes is the file's text, unless VS Code loaded it
 * through a link since flipped (a document the editor tools refused stays loaded): not taken.
 */
function captureNow(absPath: string, cwd: string): Captured {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === absPath);
  // Not a buffer whose text came through a command's link (save-guard.ts): the store is the sandbox's to read.
  return document?.isDirty && !loadedThroughCommandLink(document.uri) ? captureText(document.getText(), DEFAULT_MAX_FILE_BYTES) : captureTarget(absPath, cwd);
}

export function recordFileChanges(options: RecordingOptions): AgentAttach {
  return (client, lifetime) => {
    let recorder: { dir: string; record: ReturnType<typeof createCheckpointRecorder> } | undefined;
    // Looked up once per run (the session) and once per user message (the turn).
    let sessionId: Promise<string> | undefined;
    let turn: Promise<string | undefined> | undefined;
    let live: string | undefined;
    const note = (id: string) => {
      if (live && live !== id) options.live.delete(live);
      live = id;
      options.live.add(id);
      return id;
    };
    lifetime.add({ dispose: () => live && options.live.delete(live) });
    lifetime.add(
      client.onEvent((event) => {
        if (event.type === "agent_start") sessionId = undefined;
        if (event.type === "message_start" && event.message.role === "user") turn = undefined;
        if (event.type !== "tool_execution_start") return;
        const dir = options.store();
        const target = dir && changedFile(event.toolName, event.args, options.cwd(), options.agentRecords());
        if (!dir || !target) return;
        const captured = captureNow(target, options.cwd());
        const capturedAt = Date.now();
        if (recorder?.dir !== dir) recorder = { dir, record: createCheckpointRecorder(dir, DEFAULT_MAX_FILE_BYTES) };
        const record = recorder.record;
        sessionId ??= client.request("get_state", {}).then((state) => note(state.sessionId));
        const omp = client.capabilities.forkCommand === "branch";
        turn ??= (omp ? client.request("get_branch_messages", {}) : client.request("get_fork_messages", {})).then((answer) => answer.messages.at(-1)?.entryId);
        void Promise.all([sessionId, turn])
          .then(([session, entryId]) => entryId && record(session, entryId, target, () => captured, capturedAt, event.toolName !== "editor_edit"))
          .catch((error: unknown) => {
            sessionId = turn = undefined; // asked again next time
            options.log.warn(`Checkpoint of ${target} failed: ${errorText(error)}`);
          });
      }),
    );
  };
}

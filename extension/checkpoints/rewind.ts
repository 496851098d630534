/**
 * Pi: Rewind to Message…: pick a user message, then what to rewind — the files, the
 * conversation, or both. Files are shown in a diff and restored only after a confirmation: every
 * file touched since that message goes back to its content before the message (files created
 * since are deleted). The conversation is forked before the message (omp: branched in place) and
 * the message's text goes back into the chat's input box.
 */
import * as vscode from "vscode";
import { restorePlan } from "../../shared/checkpoints/restore-plan";
import type { CheckpointRecord, RestoreStep } from "../../shared/checkpoints/schema";
import { readRecords } from "../../shared/node/checkpoint-store";
import type { RpcClient } from "../../shared/rpc";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import { showRewindDiff } from "./diff-preview";
import { entryTimes, sessionLineage } from "./lineage";
import { applyRestore, changesFile, type RestoreResult } from "./restore";
import { guardSteps, realWorkspace } from "./restore-guard";
import { withoutContext } from "../chat/context/context-format";
import { notificationText, quickPickLine } from "../ui/plain-text";
import { errorText } from "../../shared/error-text";

export type RewindMode = "both" | "files" | "conversation";

/** The argument of pi.rewind (all optional: without it, the user picks). */
export interface RewindRequest {
  /** The session's agent (default: the session commands act on). */
  supervisor?: AgentSupervisor;
  entryId?: string;
  /** A user message of the transcript: its text and its place from the end among the user messages. */
  userMessage?: { text: string; fromEnd: number };
  mode?: RewindMode;
}

/** A session to rewind: its agent, and its chat's input box. */
export interface RewindSession {
  supervisor: AgentSupervisor;
  setInput(text: string): void;
}

export interface RewindDeps {
  /** The session of this supervisor (from a chat), else the one commands act on. */
  session(supervisor?: AgentSupervisor): RewindSession;
  /** The checkpoint store; undefined while checkpoints are off. */
  store(): string | undefined;
  log: vscode.LogOutputChannel;
}

interface ForkMessage {
  entryId: string;
  text: string;
}

const oneLine = (text: string, max = 80) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
const files = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

/** Runs the whole rewind; failures are shown, not thrown. Returns what was restored (for tests). */
export async function rewind(deps: RewindDeps, request: RewindRequest = {}): Promise<RestoreResult | undefined> {
  const session = deps.session(request.supervisor);
  const supervisor = session.supervisor;
  try {
    if (supervisor.status === "running") {
      void vscode.window.showWarningMessage("Pi is working: stop the agent before rewinding.");
      return undefined;
    }
    const client = await supervisor.ensureStarted();
    const omp = supervisor.capabilities?.forkCommand === "branch";
    const { messages } = omp ? await client.request("get_branch_messages", {}) : await client.request("get_fork_messages", {});
    if (messages.length === 0) return void vscode.window.showInformationMessage("Pi: there is no user message to rewind to yet.");
    const state = await client.request("get_state", {});
    const plans = planner(deps.store(), supervisor.workspaceFolder, state.sessionId, state.sessionFile, messages);

    const index = targetIndex(messages, request) ?? (await pickMessage(messages, plans));
    if (index === undefined) return undefined;
    const target = messages[index];
    const steps = plans(index);
    const mode = request.mode ?? (await pickMode(steps, deps.store() !== undefined, omp));
    if (!mode) return undefined;

    let result: RestoreResult | undefined;
    if (mode !== "conversation" && steps.some((s) => s.action !== "unavailable")) {
      const diff = await showRewindDiff(`Rewind to “${oneLine(withoutContext(target.text), 40)}” (now ↔ after the rewind)`, steps);
      const confirmed = await confirm(steps, mode).finally(() => diff.dispose());
      if (!confirmed) return undefined;
      result = await applyRestore(deps.store()!, supervisor.workspaceFolder, steps);
      deps.log.info(`Rewind: restored ${result.restored.length}, deleted ${result.deleted.length}, failed ${result.failed.length} file(s)`);
      if (result.failed.length > 0) {
        void vscode.window.showWarningMessage(`Pi: ${files(result.failed.length)} could not be restored: ${notificationText(result.failed.map((f) => `${vscode.workspace.asRelativePath(f.path)} (${f.reason})`).join(", "))}`);
      }
    }
    if (mode !== "files") await forkBefore(client, target, omp, session);
    await supervisor.agent.refresh(client);
    return result;
  } catch (error) {
    const message = errorText(error);
    deps.log.warn(`Rewind failed: ${message}`);
    void vscode.window.showErrorMessage(`Pi: the rewind failed: ${notificationText(message)}`);
    return undefined;
  }
}

/**
 * The restore plan for a rewind to each message (by index), computed on demand: `exact` leaves
 * out files that already are as the rewind would leave them (it reads them; the message pick's
 * counts skip that). Records are foreign data (agents write the store): every step is guarded
 * (restore-guard.ts) before a file is looked at, and a refused one is listed with its reason.
 */
function planner(store: string | undefined, workspace: string, sessionId: string, sessionFile: string | undefined, messages: ForkMessage[]) {
  if (!store) return (): RestoreStep[] => [];
  const records: CheckpointRecord[] = sessionLineage(sessionFile, sessionId).flatMap((id) => readRecords(store, id));
  const times = entryTimes(sessionFile);
  return (index: number, exact = true): RestoreStep[] => {
    const since = times.get(messages[index].entryId);
    const turns = new Set(messages.slice(index).map((m) => m.entryId));
    const steps = restorePlan(records, { turns, ...(since !== undefined ? { since } : {}) });
    return exact ? guardSteps(store, realWorkspace(workspace), steps).map((step) => trusted(store, step)).filter((step) => changesFile(store, step)) : steps;
  };
}

/**
 * A record taken only when the agent reported its tool call may hold the file as the tool left
 * it: if restoring it would change nothing, that is no proof nothing changed, so say it cannot be
 * restored rather than leave it out ("no changes").
 */
function trusted(store: string, step: RestoreStep): RestoreStep {
  if (step.action !== "write" || !step.late || changesFile(store, step)) return step;
  return { path: step.path, action: "unavailable", reason: "recorded only after the agent had changed it" };
}

function targetIndex(messages: ForkMessage[], request: RewindRequest): number | undefined {
  if (request.entryId) {
    const at = messages.findIndex((m) => m.entryId === request.entryId);
    return at === -1 ? undefined : at;
  }
  const wanted = request.userMessage;
  if (!wanted) return undefined;
  const at = messages.length - 1 - wanted.fromEnd;
  if (messages[at]?.text === wanted.text) return at;
  // The transcript and the branch disagree (a message still queued?): the latest with that text.
  const same = messages.map((m) => m.text).lastIndexOf(wanted.text);
  return same === -1 ? undefined : same;
}

async function pickMessage(messages: ForkMessage[], plans: (index: number, exact?: boolean) => RestoreStep[]): Promise<number | undefined> {
  const items = messages
    .map((m, index) => {
      const touched = plans(index, false).length;
      return { label: quickPickLine(withoutContext(m.text)) || "(empty message)", description: touched ? `${files(touched)} touched since` : "", index };
    })
    .reverse();
  const picked = await vscode.window.showQuickPick(items, { title: "Pi: Rewind to Message", placeHolder: "Rewind the files and/or the conversation to before this message" });
  return picked?.index;
}

async function pickMode(steps: RestoreStep[], recording: boolean, omp: boolean): Promise<RewindMode | undefined> {
  const conversation = omp ? "branch the conversation" : "fork the conversation";
  const restorable = steps.filter((s) => s.action !== "unavailable").length;
  const n = files(restorable);
  const items: (vscode.QuickPickItem & { mode: RewindMode })[] = [
    ...(restorable > 0
      ? [
          { label: "Files and conversation", detail: `Restore ${n} and ${conversation} before this message`, mode: "both" as const },
          { label: "Files only", detail: `Restore ${n}; the conversation goes on`, mode: "files" as const },
        ]
      : []),
    { label: "Conversation only", detail: `${conversation[0].toUpperCase()}${conversation.slice(1)} before this message; files stay as they are`, mode: "conversation" },
  ];
  const unavailable = steps.length - restorable;
  const placeHolder =
    restorable > 0 ? "What to rewind" : !recording ? "Checkpoints are off (pi.checkpoints.enabled): only the conversation can be rewound" : unavailable > 0 ? `${files(unavailable)} changed since cannot be restored: ${reasons(steps)}` : "No file changes were recorded since this message";
  return (await vscode.window.showQuickPick(items, { title: "Pi: Rewind", placeHolder }))?.mode;
}

/** Why files cannot be restored, each reason once. */
function reasons(steps: RestoreStep[]): string {
  return [...new Set(steps.flatMap((s) => (s.action === "unavailable" ? [s.reason] : [])))].join("; ");
}

async function confirm(steps: RestoreStep[], mode: RewindMode): Promise<boolean> {
  const restorable = steps.filter((s) => s.action !== "unavailable").length;
  const unavailable = steps.length - restorable;
  const apply = `Restore ${files(restorable)}${mode === "both" ? " and fork the conversation" : ""}`;
  const picked = await vscode.window.showQuickPick([apply, "Cancel"], {
    title: "Pi: Rewind — apply the changes shown in the diff?",
    placeHolder: unavailable ? `${files(unavailable)} cannot be restored: ${reasons(steps)}` : "The diff shows each file now and after the rewind",
    ignoreFocusOut: true,
  });
  return picked === apply;
}

async function forkBefore(client: RpcClient, target: ForkMessage, omp: boolean, session: RewindSession): Promise<void> {
  const result = omp ? await client.request("branch", { entryId: target.entryId }) : await client.request("fork", { entryId: target.entryId });
  if (result.cancelled) return void vscode.window.showInformationMessage("Pi: an extension cancelled the fork.");
  session.setInput(withoutContext(result.text ?? target.text));
}

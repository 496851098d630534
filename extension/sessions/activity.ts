import type { AgentEvent } from "../../shared/protocol";
import type { AgentStatus } from "../../shared/webview-protocol";

/** What a session is doing, as the sessions list and the status bar show it. */
export type SessionActivity = "stopped" | "starting" | "idle" | "running" | "waiting" | "done" | "failed";

/** How the last run ended; undefined before the first run. */
export type RunOutcome = "done" | "failed" | "aborted";

export interface ActivityInput {
  status: AgentStatus;
  openDialogs: number;
  lastRun: RunOutcome | undefined;
  /** The user has looked at the session since its last run ended. */
  seen: boolean;
}

/** A pending dialog comes first: the agent waits for the user whatever else it does. */
export function sessionActivity(input: ActivityInput): SessionActivity {
  if (input.openDialogs > 0) return "waiting";
  switch (input.status) {
    case "running":
      return "running";
    case "crashed":
      return "failed";
    case "starting":
      return "starting";
    case "stopped":
      return "stopped";
    case "idle":
      if (input.seen || input.lastRun === undefined) return "idle";
      return input.lastRun === "failed" ? "failed" : "done";
  }
}

/** The outcome of a run from its agent_end: the last assistant message's stop reason. */
export function runOutcome(event: Extract<AgentEvent, { type: "agent_end" }>): RunOutcome {
  for (let i = event.messages.length - 1; i >= 0; i--) {
    const message = event.messages[i];
    if (message.role !== "assistant") continue;
    if (message.stopReason === "error") return "failed";
    if (message.stopReason === "aborted") return "aborted";
    return "done";
  }
  return "done";
}

export const activityLabels: Record<SessionActivity, string> = {
  stopped: "stopped",
  starting: "starting",
  idle: "idle",
  running: "running",
  waiting: "waiting for you",
  done: "done",
  failed: "failed",
};

/** Codicon ids for each activity (status bar and the sessions list). */
export const activityIcons: Record<SessionActivity, string> = {
  stopped: "circle-slash",
  starting: "loading~spin",
  idle: "circle-outline",
  running: "sync~spin",
  waiting: "bell-dot",
  done: "check",
  failed: "error",
};

/** "$(sync~spin) 2 $(bell-dot) 1 $(check) 1": counts of the activities worth a glance. */
export function summarizeActivities(activities: readonly SessionActivity[]): string {
  const count = (a: SessionActivity) => activities.filter((x) => x === a).length;
  const parts: string[] = [];
  for (const [activity, icon] of [["running", "sync~spin"], ["waiting", "bell-dot"], ["done", "check"], ["failed", "error"]] as const) {
    const n = count(activity);
    if (n > 0) parts.push(`$(${icon}) ${n}`);
  }
  return parts.join(" ");
}

import * as vscode from "vscode";
import { settings, type TraceLevel } from "../settings";

/** Responses after which the agent's state (model, session, modes) is re-read. */
const stateChanging = new Set([
  "set_model", "cycle_model", "set_thinking_level", "cycle_thinking_level", "new_session", "switch_session", "fork", "clone",
  "branch", "compact", "set_session_name", "set_steering_mode", "set_follow_up_mode", "set_interrupt_mode", "set_auto_compaction",
]);

const streamingEvents = new Set(["message_update", "tool_execution_update", "bash_execution_update"]);

/**
 * The RPC client's trace hook: writes the protocol to the log per `pi.trace` (off / messages:
 * each frame shortened, streaming deltas as one line / verbose: every frame in full) and notices
 * responses that change the agent's state. Frames never carry the process environment.
 */
export class ProtocolTracer implements vscode.Disposable {
  private level: TraceLevel = settings.trace;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly onStateChanged: () => void,
  ) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("pi.trace")) this.level = settings.trace;
    });
  }

  readonly hook = (direction: "in" | "out", frame: unknown): void => {
    const f = (frame ?? {}) as { type?: string; command?: string; success?: boolean; assistantMessageEvent?: { type?: string; delta?: string } };
    if (direction === "in" && f.type === "response" && f.success && f.command && stateChanging.has(f.command)) this.onStateChanged();
    if (this.level === "off") return;
    const arrow = direction === "in" ? "<-" : "->";
    let text: string;
    if (this.level === "messages" && f.type && streamingEvents.has(f.type)) {
      const delta = f.assistantMessageEvent;
      text = `${f.type}${delta?.type ? ` ${delta.type}` : ""}${typeof delta?.delta === "string" ? ` (${delta.delta.length} chars)` : ""}`;
    } else {
      const json = JSON.stringify(frame);
      text = this.level === "verbose" || json.length <= 300 ? json : `${json.slice(0, 300)}… (${json.length} chars)`;
    }
    // The trace is asked for by a setting: show it even when the channel's level is above Trace.
    if (this.log.logLevel <= vscode.LogLevel.Trace) this.log.trace(`${arrow} ${text}`);
    else this.log.info(`[rpc] ${arrow} ${text}`);
  };

  dispose(): void {
    this.subscription.dispose();
  }
}

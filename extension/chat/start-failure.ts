import * as vscode from "vscode";
import { errorText } from "../../shared/error-text";
import type { StartFailureAction } from "../../shared/chat-items";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { Transcript } from "./transcript";

/** What the failed start's entry needs of the supervisor. */
export type StartFailureSource = Pick<AgentSupervisor, "onDidFailStart" | "onReady" | "startFailure" | "restart">;

const START_FAILURE_KEY = "agent-start-failure";
const startFailureHint = "Check the agent's settings (pi.agent.command, pi.agent.args, pi.agent.env), then retry. The log has its whole output.";

/**
 * A failed start in a chat: shown once, in place, with what to do (its buttons: Retry, Show Log,
 * Open Settings); it goes when a start succeeds.
 */
export class StartFailureEntry implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];

  /** `showError` shows what a Retry throws (a failure again replaces the entry instead). */
  constructor(
    private readonly supervisor: StartFailureSource,
    private readonly transcript: Transcript,
    private readonly showError: (error: unknown) => void,
  ) {
    this.subscriptions = [
      supervisor.onDidFailStart((failure) => transcript.upsert({ kind: "error", key: START_FAILURE_KEY, text: `${failure}\n${startFailureHint}`, actions: ["retry", "showLog", "openSettings"] })),
      supervisor.onReady(() => transcript.remove(START_FAILURE_KEY)),
    ];
  }

  /** Whether the chat shows this error already, as its failed start (said once, not again as an error). */
  shows(error: unknown): boolean {
    return errorText(error) === this.supervisor.startFailure && this.showing;
  }

  /** A button of the failed start's entry: for this chat's agent. */
  async act(action: StartFailureAction): Promise<void> {
    if (!this.showing) return; // only while the chat shows a failed start
    if (action === "retry") {
      // A failure again replaces the entry (onDidFailStart); showError says only what is not a start failure.
      await this.supervisor.restart().catch((error: unknown) => this.showError(error));
    } else if (action === "showLog") {
      await vscode.commands.executeCommand("pi.showLog");
    } else {
      await vscode.commands.executeCommand("pi.openAgentSettings");
    }
  }

  private get showing(): boolean {
    return this.transcript.get(START_FAILURE_KEY, "error") !== undefined;
  }

  dispose(): void {
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

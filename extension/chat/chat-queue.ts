import * as vscode from "vscode";
import type { ImageContent } from "../../shared/protocol";
import type { QueueState, ToWebview } from "../../shared/webview-protocol";
import type { AgentSupervisor } from "../supervision/agent-supervisor";

/**
 * What the chat sends that the agent queues (prompts while it runs, queue edits, Abort) and how
 * the chat shows the queue. The queue itself is the supervisor's (AgentState.queue): this only
 * renders it and asks the agent to change it.
 */
export class ChatQueue implements vscode.Disposable {
  /** Queue edits under way (see edit). */
  private edits = 0;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly supervisor: AgentSupervisor,
    private readonly post: (message: ToWebview) => void,
    private readonly showError: (error: unknown) => void,
  ) {
    this.subscription = supervisor.agent.queue.onDidChange(() => this.edits === 0 && this.show());
  }

  /** The agent's queue, or what was sent to an agent that reports none (marked unconfirmed). */
  show(): void {
    const { queue, unconfirmed } = this.supervisor.agent.queue.view;
    this.post(unconfirmed ? { type: "queue", queue, unconfirmed } : { type: "queue", queue });
  }

  /** Sends a prompt; while the agent runs it is queued as steering (default) or a follow-up. */
  async prompt(text: string, mode: "steer" | "followUp" = "steer", images?: ImageContent[]): Promise<void> {
    const { queue } = this.supervisor.agent;
    if (this.supervisor.status === "running") queue.noteSent(text, mode);
    try {
      const client = await this.supervisor.ensureStarted();
      await client.request("prompt", { message: text, streamingBehavior: mode, ...(images ? { images } : {}) });
    } catch (error) {
      queue.notSent(text);
      this.showError(error);
    }
  }

  /** A run settled: Pi keeps what it did not take (an abort from elsewhere, an error) and would send
   * it with the next prompt, so it comes back into the box instead, as on Abort. */
  settled(): void {
    const { queue } = this.supervisor.agent;
    if (this.edits === 0 && queue.size > 0 && !queue.view.unconfirmed) void this.restore();
  }

  /** Abort: the queued messages come back into the box first (as in Pi's terminal UI), then the run stops. */
  async abort(): Promise<void> {
    const client = this.supervisor.client;
    if (!client) return;
    try {
      // Pi keeps its queue through an abort and would send it with the next prompt.
      if (client.capabilities.sessionTree) await this.restore();
      await client.request("abort", {});
    } catch (error) {
      this.showError(error);
    }
  }

  /** Replaces the agent's queue: clear_queue, then each message queued again in order. */
  async edit(queue: QueueState): Promise<void> {
    const client = this.supervisor.client;
    if (!client) return;
    // The queue updates between clear_queue and the last message would redraw the view's queue
    // (losing its focus) several times: the view sees only where the edit ends.
    this.edits++;
    try {
      await client.request("clear_queue", {});
      for (const message of queue.steering) await client.request("steer", { message });
      for (const message of queue.followUp) await client.request("follow_up", { message });
    } catch (error) {
      this.showError(error);
    } finally {
      if (--this.edits === 0) this.show();
    }
  }

  /** Escape (and Abort): the queued messages go back into the input box. */
  async restore(): Promise<void> {
    const client = this.supervisor.client;
    if (!client) return;
    try {
      const cleared = await client.request("clear_queue", {});
      this.supervisor.agent.queue.clear(); // also for agents that send no queue_update
      const text = [...cleared.steering, ...cleared.followUp].join("\n\n");
      if (text) this.post({ type: "setInput", text, append: true });
    } catch (error) {
      this.showError(error);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

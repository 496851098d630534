import * as vscode from "vscode";
import { contentText } from "../../shared/protocol";
import type { RpcClient } from "../../shared/rpc";
import type { QueueState } from "../../shared/webview-protocol";
import { SentQueue } from "./sent-queue";

/** The queue as the chat shows it: the agent's own, or what was sent to an agent that reports none. */
export interface QueueView {
  queue: QueueState;
  /** Only what this window sent; the agent has not confirmed it (it sends no queue_update). */
  unconfirmed: boolean;
}

const empty = (): QueueState => ({ steering: [], followUp: [] });

/**
 * The one owner of an agent's queue of steering and follow-up messages: what the agent reports
 * (queue_update), and for agents that report nothing, what was sent to them until they take it.
 * The chat, the status bar and crash recovery all read it from here.
 */
export class AgentQueue implements vscode.Disposable {
  private reported: QueueState = empty();
  private readonly sent = new SentQueue();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;

  /** The agent's queue (what it reported, else what it was sent). */
  get view(): QueueView {
    const sent = this.sent.shown;
    return sent ? { queue: sent, unconfirmed: true } : { queue: { steering: [...this.reported.steering], followUp: [...this.reported.followUp] }, unconfirmed: false };
  }

  get size(): number {
    const { queue } = this.view;
    return queue.steering.length + queue.followUp.length;
  }

  /** Every queued text, steering first (what a restarted agent should get back). */
  texts(): string[] {
    const { queue } = this.view;
    return [...queue.steering, ...queue.followUp];
  }

  /** Follows one agent process; a new process starts with an empty queue that reported nothing. */
  observe(client: RpcClient): vscode.Disposable {
    this.sent.reset();
    this.reported = empty();
    this.fire();
    const subs = [
      client.on("queue_update", (event) => {
        this.sent.agentReports();
        this.reported = { steering: [...event.steering], followUp: [...event.followUp] };
        this.fire();
      }),
      client.on("message_start", (event) => {
        if (event.message.role === "user" && this.sent.taken(contentText(event.message.content))) this.fire();
      }),
    ];
    return { dispose: () => subs.forEach((sub) => sub.dispose()) };
  }

  /** A message the user sent while the agent runs; shown as queued when the agent reports no queue. */
  noteSent(text: string, mode: "steer" | "followUp"): void {
    if (this.sent.add(text, mode)) this.fire();
  }

  /** A message noted as sent could not be sent after all. */
  notSent(text: string): void {
    if (this.sent.taken(text)) this.fire();
  }

  /** After a run: the agent says it still holds `held` messages (get_state), for agents that report none. */
  agentHolds(held: number): void {
    if (this.sent.keepNewest(held)) this.fire();
  }

  /** The agent gave its queue back (clear_queue), or the process is gone. */
  clear(): void {
    const had = this.size > 0;
    this.sent.clear();
    this.reported = empty();
    if (had) this.fire();
  }

  private fire(): void {
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

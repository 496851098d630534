/**
 * The agent's events, recorded and put on the wire: each finished message is saved to the session
 * file (one that cannot be saved becomes a notice that can), queue changes become
 * `queue_update`, and every event is converted to its wire form (wire-events.ts).
 */
import type { AgentEvent as WireEvent } from "../../../shared/protocol";
import type { Agent } from "../../agent/agent";
import type { Disposable } from "../../agent/emitter";
import type { AgentEvent, AgentMessage } from "../../agent/types";
import type { AssistantMessage } from "../../ai/types";
import type { SessionManager } from "../persistence/session-manager";
import { replaceWithNotice, UnpersistableEntryError } from "../persistence/unsaveable";
import { userText } from "./message-text";
import { toWireEvent } from "./wire-events";

/** What the run decides at the events that end a reply or a run. */
export interface RunOutcome {
  /** At agent_end: the run goes on (a retry or an overflow recovery follows). */
  agentEnded(last: AssistantMessage | undefined): boolean;
  /** At an assistant message_end, after its wire event. */
  replyEnded(message: AssistantMessage): void;
}

export class AgentEventRecorder implements Disposable {
  /** The loop took a queued message; pi reports that when it starts (before its message_start). */
  private dequeued = false;
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly agent: Agent,
    private readonly sessions: SessionManager,
    private readonly emit: (event: WireEvent) => void,
    private readonly run: RunOutcome,
    /** `--event-snapshots`: message_update also carries the cumulative message. */
    private readonly eventSnapshots: boolean,
  ) {
    this.subscriptions = [
      agent.onEvent((event) => this.record(event)),
      agent.onQueueChange((queues) => {
        if (queues.change === "take") this.dequeued = true;
        else this.emitQueue(queues);
      }),
    ];
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  /** The failed reply leaves the model's context (a context_edit entry); the raw history keeps it. */
  dropFailedReply(): void {
    const messages = this.agent.messages;
    const last = messages.at(-1);
    if (last?.role !== "assistant") return;
    messages.pop();
    const leaf = this.sessions.branch().at(-1);
    if (leaf?.type === "message" && leaf.message === last) {
      const entry = this.sessions.append({ type: "context_edit", targetId: leaf.id, replacement: null });
      this.emit({ type: "entry_appended", entry });
    }
  }

  private record(event: AgentEvent): void {
    if (event.type === "agent_end") {
      const last = this.agent.messages.at(-1);
      const willRetry = this.run.agentEnded(last?.role === "assistant" ? last : undefined);
      this.emit(toWireEvent(event, willRetry, this.eventSnapshots));
      return;
    }
    if (event.type === "message_end") this.persistMessage(event.message);
    if (event.type === "message_start" && event.message.role === "user" && this.dequeued) {
      this.dequeued = false;
      this.emitQueue(this.agent.queueState());
    }
    this.emit(toWireEvent(event, false, this.eventSnapshots));
    if (event.type === "message_end" && event.message.role === "assistant") this.run.replyEnded(event.message);
  }

  private emitQueue(queues: { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] }): void {
    this.emit({ type: "queue_update", steering: queues.steering.map(userText), followUp: queues.followUp.map(userText) });
  }

  /** Saves a message; one that cannot be saved becomes, in place, a notice that is (the run goes on). */
  private persistMessage(message: AgentMessage): void {
    try {
      this.sessions.appendMessage(message);
    } catch (error) {
      if (!(error instanceof UnpersistableEntryError)) throw error;
      replaceWithNotice(message, `${error.message} It was replaced by this notice.`);
      this.sessions.appendMessage(message);
    }
  }
}

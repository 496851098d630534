import type { QueueState } from "../../shared/webview-protocol";

/**
 * What this chat sent to a running agent that reports no queue (oh-my-pi sends no queue_update):
 * shown as sent, until the agent takes each message (its user message starts); when a run ends,
 * as many as the agent says it still holds (oh-my-pi keeps them through an abort).
 * Once the agent sends a queue_update, its own queue is the truth and this stays empty.
 */
export class SentQueue {
  private reports = false;
  private sent: QueueState = { steering: [], followUp: [] };

  /** A new agent process: it has reported nothing yet. */
  reset(): void {
    this.reports = false;
    this.clear();
  }

  /** The agent sent a queue_update: it reports its queue itself. */
  agentReports(): void {
    this.reports = true;
    this.clear();
  }

  /** A message sent while the agent runs; false when the agent reports its queue itself. */
  add(text: string, mode: "steer" | "followUp"): boolean {
    if (this.reports) return false;
    this.sent[mode === "steer" ? "steering" : "followUp"].push(text);
    return true;
  }

  /** The agent took a message (or it could not be sent); true when it was shown here. */
  taken(text: string): boolean {
    for (const kind of ["steering", "followUp"] as const) {
      const at = this.sent[kind].indexOf(text);
      if (at !== -1) {
        this.sent[kind].splice(at, 1);
        return true;
      }
    }
    return false;
  }

  /** Nothing waits any more. True when something was shown. */
  clear(): boolean {
    const had = this.size > 0;
    this.sent = { steering: [], followUp: [] };
    return had;
  }

  /**
   * The run ended and the agent says it still holds `held` messages (get_state): keep that many,
   * dropping the oldest steering first (delivered first); true when something changed.
   */
  keepNewest(held: number): boolean {
    let drop = this.size - Math.max(0, held);
    if (drop <= 0) return false;
    for (const kind of ["steering", "followUp"] as const) {
      const n = Math.min(drop, this.sent[kind].length);
      this.sent[kind].splice(0, n);
      drop -= n;
    }
    return true;
  }

  get size(): number {
    return this.sent.steering.length + this.sent.followUp.length;
  }

  /** What to show, when there is something unconfirmed to show. */
  get shown(): QueueState | undefined {
    return this.size > 0 ? { steering: [...this.sent.steering], followUp: [...this.sent.followUp] } : undefined;
  }
}

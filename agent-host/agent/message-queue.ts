import type { AgentMessage, QueueMode } from "./types";

/** What changed a queue: a message added, taken by the loop, or the queue cleared. */
export type QueueChange = "push" | "take" | "clear";

/** A queue of user messages waiting for the agent (steering or follow-up). */
export class MessageQueue {
  private readonly items: AgentMessage[] = [];

  constructor(
    public mode: QueueMode = "one-at-a-time",
    private readonly onChange: (change: QueueChange) => void = () => undefined,
  ) {}

  get length(): number {
    return this.items.length;
  }

  push(message: AgentMessage): void {
    this.items.push(message);
    this.onChange("push");
  }

  /** One message, or all of them, per the mode. */
  take(): AgentMessage[] {
    if (this.items.length === 0) return [];
    const taken = this.mode === "all" ? this.items.splice(0) : this.items.splice(0, 1);
    this.onChange("take");
    return taken;
  }

  clear(notify = true): AgentMessage[] {
    const removed = this.items.splice(0);
    if (removed.length && notify) this.onChange("clear");
    return removed;
  }

  peek(): readonly AgentMessage[] {
    return this.items;
  }
}

/**
 * Each running tool call's own time, as its card shows it: from its start to its end, less the
 * time a question about it waited for the user (a permission question comes after the call's
 * start and before it runs: that wait is the user's time, not the tool's).
 */
export class ToolClock {
  /** Per call in start order: the time counted so far, since when it counts (undefined while a question is open), the questions open. */
  private readonly calls = new Map<string, { counted: number; since: number | undefined; questions: number }>();

  constructor(private readonly now: () => number) {}

  start(callId: string): void {
    this.calls.set(callId, { counted: 0, since: this.now(), questions: 0 });
  }

  /** The calls running now, in the order they started. */
  get running(): string[] {
    return [...this.calls.keys()];
  }

  /** A question about the call is open: its time stops until every question about it has closed (the returned function, once). */
  pauseFor(callId: string): () => void {
    const call = this.calls.get(callId);
    if (!call) return () => undefined;
    if (call.questions++ === 0 && call.since !== undefined) {
      call.counted += this.now() - call.since;
      call.since = undefined;
    }
    let resumed = false;
    return () => {
      if (resumed || this.calls.get(callId) !== call) return;
      resumed = true;
      if (--call.questions === 0) call.since = this.now();
    };
  }

  /** The call ended: its own time (undefined for a call whose start was not seen), and it is forgotten. */
  stop(callId: string): number | undefined {
    const call = this.calls.get(callId);
    if (!call) return undefined;
    this.calls.delete(callId);
    return call.counted + (call.since === undefined ? 0 : this.now() - call.since);
  }
}

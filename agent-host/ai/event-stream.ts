import type { AssistantMessage, AssistantMessageEvent } from "./types";

/**
 * A provider's output: an async iterable of events and, at the same time, a promise of the final
 * message (`result()`). Events are buffered until read, so a slow reader loses nothing; the
 * stream ends after `done` or `error`.
 */
export class AssistantMessageEventStream implements AsyncIterable<AssistantMessageEvent> {
  private queue: AssistantMessageEvent[] = [];
  /** The queue's first unread event (taking from the front of a long array one by one is quadratic). */
  private head = 0;
  private readonly readers: ((result: IteratorResult<AssistantMessageEvent>) => void)[] = [];
  private ended = false;
  private resolveResult!: (message: AssistantMessage) => void;
  private readonly final: Promise<AssistantMessage>;

  constructor() {
    this.final = new Promise((resolve) => (this.resolveResult = resolve));
  }

  push(event: AssistantMessageEvent): void {
    if (this.ended) return;
    const reader = this.readers.shift();
    if (reader) reader({ value: event, done: false });
    else this.queue.push(event);
    if (event.type === "done") this.finish(event.message);
    else if (event.type === "error") this.finish(event.error);
  }

  private finish(message: AssistantMessage): void {
    this.ended = true;
    this.resolveResult(message);
    for (const reader of this.readers.splice(0)) reader({ value: undefined, done: true });
  }

  private take(): AssistantMessageEvent | undefined {
    if (this.head === this.queue.length) return undefined;
    const event = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      // Drop what was read once it is most of the array: amortized O(1) per event.
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return event;
  }

  /** The final message: resolves on `done` and on `error` (a stream never rejects). */
  result(): Promise<AssistantMessage> {
    return this.final;
  }

  [Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
    return {
      next: () => {
        const event = this.take();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.readers.push(resolve));
      },
    };
  }
}

import { Fifo } from "../../shared/fifo";
import type { AssistantMessage, AssistantMessageEvent } from "./types";

/**
 * A provider's output: an async iterable of events and, at the same time, a promise of the final
 * message (`result()`). Events are buffered until read, so a slow reader loses nothing; the
 * stream ends after `done` or `error`.
 */
export class AssistantMessageEventStream implements AsyncIterable<AssistantMessageEvent> {
  private readonly queue = new Fifo<AssistantMessageEvent>();
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

  /** The final message: resolves on `done` and on `error` (a stream never rejects). */
  result(): Promise<AssistantMessage> {
    return this.final;
  }

  [Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
    return {
      next: () => {
        const event = this.queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.readers.push(resolve));
      },
    };
  }
}

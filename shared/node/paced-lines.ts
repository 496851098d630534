import type { Readable } from "node:stream";
import { LineDecoder } from "../jsonl";
import { Fifo } from "../fifo";

/** How long one task may spend handing on lines before the rest waits for the next turn of the event loop. */
export const LINE_BUDGET_MS = 8;

export interface PacedLinesOptions {
  maxLineChars?: number;
  onLine(line: string): void;
  onError?(message: string): void;
  /** The input ended and every line before its end was handed on. */
  onEnd?(): void;
  budgetMs?: number;
}

/**
 * When this turn of the event loop began for the readers: one budget for all of them, since several
 * pipes ready together (eight agents' last events) are read in one turn, and a paused stream resumed
 * emits what it buffered meanwhile in one go. A new turn starts after the check phase's first
 * immediate (queued when this turn's first reader began).
 */
let turnStart: number | undefined;

/** The milliseconds the readers have spent handing on lines in this turn of the event loop. */
export function spentThisTurn(): number {
  const now = performance.now();
  if (turnStart === undefined) {
    turnStart = now;
    setImmediate(() => (turnStart = undefined));
  }
  return now - turnStart;
}

/** A record that could not be read (too long): rare, so lines wait as plain strings. */
class LineError {
  constructor(readonly message: string) {}
}

/**
 * A stream's JSONL records handed on a few milliseconds of their handling at a time. One read can
 * carry many records (several sessions' ends in a shared process, a burst after a stall) and
 * each record's handling runs in the extension host, which every extension shares: past the
 * budget, the rest waits for the next turn of the event loop (other extensions' timers and
 * messages run between), and the stream is paused meanwhile, so no more than one read waits.
 * Lines are handed on in order, the first ones in the read's own task, as before.
 */
export class PacedLines {
  private readonly decoder: LineDecoder;
  private readonly waiting = new Fifo<string | LineError>();
  private readonly budgetMs: number;
  private readonly afterwards: (() => void)[] = [];
  private pumping = false;
  private next: ReturnType<typeof setImmediate> | undefined;
  private pausedHere = false;
  private ended = false;
  private finished = false;

  constructor(
    private readonly input: Readable,
    private readonly options: PacedLinesOptions,
  ) {
    this.budgetMs = options.budgetMs ?? LINE_BUDGET_MS;
    this.decoder = new LineDecoder({
      maxLineChars: options.maxLineChars,
      onLine: (line) => this.waiting.push(line),
      onError: (error) => this.waiting.push(new LineError(error)),
    });
    input.on("data", this.onData);
    input.on("end", this.onInputEnd);
  }

  /** Runs `then` once every line read so far has been handed on: now, when none waits. */
  afterLines(then: () => void): void {
    if (this.idle) then();
    else this.afterwards.push(then);
  }

  private get idle(): boolean {
    return this.waiting.size === 0 && !this.pumping && this.next === undefined;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.decoder.push(chunk);
    this.pump();
  };

  private readonly onInputEnd = (): void => {
    this.decoder.end();
    this.ended = true;
    this.pump();
  };

  private pump(): void {
    if (this.pumping || this.next !== undefined || this.finished) return;
    if (this.waiting.size > 0 && spentThisTurn() >= this.budgetMs) return this.resumeLater();
    this.pumping = true;
    try {
      while (this.waiting.size > 0) {
        const item = this.waiting.shift()!;
        if (typeof item === "string") this.options.onLine(item);
        else this.options.onError?.(item.message);
        if (this.waiting.size > 0 && spentThisTurn() >= this.budgetMs) break;
      }
    } finally {
      this.pumping = false;
      // The rest (also after a handler threw) in the next turn, with the stream paused until then.
      if (this.waiting.size > 0) {
        if (!this.finished) this.resumeLater();
      } else this.settled();
    }
  }

  private resumeLater(): void {
    if (!this.input.isPaused()) {
      this.input.pause();
      this.pausedHere = true;
    }
    this.next = setImmediate(() => {
      this.next = undefined;
      this.pump();
    });
  }

  private settled(): void {
    if (this.pausedHere && !this.finished) {
      this.pausedHere = false;
      this.input.resume();
    }
    for (const then of this.afterwards.splice(0)) then();
    if (this.ended && !this.finished) {
      this.finished = true;
      this.options.onEnd?.();
    }
  }

  /** Stops reading: lines not yet handed on are dropped, and so is what waited for them; the stream flows again (to its end). */
  dispose(): void {
    this.finished = true;
    this.afterwards.length = 0;
    if (this.pausedHere) this.input.resume();
    if (this.next !== undefined) clearImmediate(this.next);
    this.next = undefined;
    this.waiting.drain();
    this.input.off("data", this.onData);
    this.input.off("end", this.onInputEnd);
  }
}

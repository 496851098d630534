/**
 * JSONL framing as Pi defines it: records end at LF only (never at U+2028/U+2029, which are
 * valid inside JSON strings), one trailing CR is stripped, UTF-8 may be split across chunks.
 * Platform-free: used by the agent host, the extension and tests alike.
 */
import { parseForeignFrame, type ForeignJson } from "./foreign-json";
import { Fifo } from "./fifo";

export const DEFAULT_MAX_LINE_CHARS = 32 * 1024 * 1024;

export interface LineDecoderOptions {
  /** Longer records are dropped (with onError) instead of growing memory without bound. */
  maxLineChars?: number;
  onLine: (line: string) => void;
  onError?: (message: string) => void;
}

export class LineDecoder {
  private readonly utf8 = new TextDecoder("utf-8");
  private readonly pieces: string[] = [];
  private pendingChars = 0;
  /** True while dropping the rest of an oversized record. */
  private skipping = false;
  private readonly maxLineChars: number;

  constructor(private readonly options: LineDecoderOptions) {
    this.maxLineChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  }

  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string" ? chunk : this.utf8.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const lf = text.indexOf("\n", start);
      if (lf === -1) {
        this.hold(text.slice(start));
        return;
      }
      this.hold(text.slice(start, lf));
      this.finishLine();
      start = lf + 1;
    }
  }

  /** End of input: a last record without LF still counts. */
  end(): void {
    const rest = this.utf8.decode();
    if (rest) this.hold(rest);
    if (this.pendingChars > 0 || this.skipping) this.finishLine();
  }

  private hold(piece: string): void {
    if (!piece || this.skipping) return;
    if (this.pendingChars + piece.length > this.maxLineChars) {
      this.pieces.length = 0;
      this.pendingChars = 0;
      this.skipping = true;
      this.options.onError?.(`Line exceeds the maximum of ${this.maxLineChars} characters; it was dropped`);
      return;
    }
    this.pieces.push(piece);
    this.pendingChars += piece.length;
  }

  private finishLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    let line = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join("");
    this.pieces.length = 0;
    this.pendingChars = 0;
    if (line === undefined) line = "";
    if (line.endsWith("\r")) line = line.slice(0, -1);
    this.options.onLine(line);
  }
}

export type ParsedLine = ForeignJson;

/**
 * One record from the other side, through the foreign-JSON door's frame path: no `__proto__`,
 * `constructor` or `prototype` key survives (each dropped is a notice); frames are schema-checked
 * by their reader next.
 */
export function parseJsonLine(line: string): ParsedLine {
  return parseForeignFrame(line);
}

/**
 * A value already encoded as JSON text, for a frame's `data` that JSON.stringify handles badly
 * (a deep tree: V8 leaves its fast path and is several times slower). encodeFrame splices it in.
 */
export class EncodedJson<T = unknown> {
  /** The type of the value the text encodes (for the compiler only). */
  declare readonly encodes?: T;
  constructor(readonly text: string) {}
}

/** One record: JSON text and LF. JSON.stringify never emits a raw LF inside a value. */
export function encodeFrame(frame: unknown): string {
  const data = (frame as { data?: unknown } | null)?.data;
  if (data instanceof EncodedJson) {
    const { data: _data, ...rest } = frame as { data: EncodedJson };
    const head = JSON.stringify(rest);
    return `${head.length > 2 ? `${head.slice(0, -1)},` : "{"}"data":${data.text}}\n`;
  }
  try {
    return `${JSON.stringify(frame)}\n`;
  } catch (error) {
    // A deeply nested value (get_tree of a long linear session) overflows the recursive stringify.
    if (error instanceof RangeError) return `${stringifyDeep(frame)}\n`;
    throw error;
  }
}

/**
 * JSON.stringify without recursion, for values nested deeper than the call stack allows. Same
 * output for plain data (objects, arrays, strings, numbers, booleans, null; undefined and
 * functions skipped in objects, null in arrays; toJSON honoured).
 */
export function stringifyDeep(value: unknown): string {
  const out: string[] = [];
  type Frame = { kind: "close"; text: string } | { kind: "value"; value: unknown; inArray: boolean } | { kind: "raw"; text: string };
  const stack: Frame[] = [{ kind: "value", value, inArray: true }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.kind !== "value") {
      out.push(frame.text);
      continue;
    }
    let v = frame.value;
    if (v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function") v = (v as { toJSON(): unknown }).toJSON();
    if (v === undefined || typeof v === "function" || typeof v === "symbol") {
      out.push("null");
      continue;
    }
    if (v === null || typeof v !== "object") {
      out.push(JSON.stringify(v) ?? "null");
      continue;
    }
    const items: Frame[] = [];
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (i > 0) items.push({ kind: "raw", text: "," });
        items.push({ kind: "value", value: item, inArray: true });
      });
      stack.push({ kind: "close", text: "]" }, ...items.reverse());
      out.push("[");
    } else {
      let first = true;
      for (const [key, item] of Object.entries(v)) {
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
        items.push({ kind: "raw", text: `${first ? "" : ","}${JSON.stringify(key)}:` }, { kind: "value", value: item, inArray: false });
        first = false;
      }
      stack.push({ kind: "close", text: "}" }, ...items.reverse());
      out.push("{");
    }
  }
  return out.join("");
}

/** Something records can be written to: a Node stream, a message port, a test buffer. */
export interface LineSink {
  /** Returns false when the sink wants the writer to wait for `onDrain`. */
  write(text: string): boolean;
  onDrain(listener: () => void): { dispose(): void };
}

/**
 * Writes records in order and honours back-pressure: while the sink is full, records wait in
 * memory (bounded) and `write` resolves once the record was handed to the sink.
 */
export class JsonlWriter {
  private readonly queue = new Fifo<{ text: string; done: (error?: Error) => void }>();
  private queuedChars = 0;
  private waiting = false;
  private closed = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxQueuedChars = 256 * 1024 * 1024,
  ) {}

  write(frame: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The connection is closed"));
    const text = encodeFrame(frame);
    if (this.writeNow(text)) return Promise.resolve();
    if (this.queuedChars + text.length > this.maxQueuedChars) {
      return Promise.reject(new Error("The reader is not consuming output; write queue is full"));
    }
    return new Promise((resolve, reject) => this.enqueue(text, (error) => (error ? reject(error) : resolve())));
  }

  /**
   * `write` for a caller that never waits (an event stream): no promise per record. A record that
   * cannot be written (closed, or the queue is full) is dropped, as `write` would reject it.
   */
  post(frame: unknown): void {
    if (this.closed) return;
    const text = encodeFrame(frame);
    if (!this.writeNow(text) && this.queuedChars + text.length <= this.maxQueuedChars) this.enqueue(text, () => undefined);
  }

  /** Hands the text to the sink when nothing waits before it; false when it has to queue. */
  private writeNow(text: string): boolean {
    if (this.waiting || this.queue.size > 0) return false;
    if (!this.sink.write(text)) this.waitForDrain();
    return true;
  }

  private enqueue(text: string, done: (error?: Error) => void): void {
    this.queue.push({ text, done });
    this.queuedChars += text.length;
  }

  close(reason = "The connection is closed"): void {
    this.closed = true;
    const waiting = this.queue.drain();
    this.queuedChars = 0;
    for (const item of waiting) item.done(new Error(reason));
  }

  private waitForDrain(): void {
    this.waiting = true;
    const sub = this.sink.onDrain(() => {
      sub.dispose();
      this.waiting = false;
      this.flush();
    });
  }

  private flush(): void {
    while (!this.waiting) {
      const item = this.queue.shift();
      if (!item) break;
      this.queuedChars -= item.text.length;
      const ok = this.sink.write(item.text);
      item.done();
      if (!ok) this.waitForDrain();
    }
  }
}

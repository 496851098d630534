import type { Readable, Writable } from "node:stream";
import { Emitter } from "vscode-jsonrpc";
import { JsonlWriter, LineDecoder, parseJsonLine } from "../jsonl";
import type { BadLine, FrameTransport, TransportClosed } from "../rpc/transport";

export interface StreamTransportOptions {
  maxLineChars?: number;
  /** The transport closes when its input stream closes (plain streams; a child process reports its exit instead). */
  closeWithInput?: boolean;
}

/** A FrameTransport over a pair of Node streams (a child's stdio, or PassThroughs in tests). */
export class StreamTransport implements FrameTransport {
  private readonly frameEmitter = new Emitter<unknown>();
  private readonly badLineEmitter = new Emitter<BadLine>();
  private readonly stderrEmitter = new Emitter<string>();
  private readonly closeEmitter = new Emitter<TransportClosed>();
  readonly onFrame = this.frameEmitter.event;
  readonly onBadLine = this.badLineEmitter.event;
  readonly onStderr = this.stderrEmitter.event;
  readonly onClose = this.closeEmitter.event;
  private readonly writer: JsonlWriter;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: StreamTransportOptions = {},
  ) {
    const decoder = new LineDecoder({
      maxLineChars: options.maxLineChars,
      onLine: (line) => this.onLine(line),
      onError: (error) => this.badLineEmitter.fire({ line: "", error }),
    });
    input.on("data", (chunk: Buffer | string) => decoder.push(chunk));
    input.on("end", () => decoder.end());
    if (options.closeWithInput) input.on("close", () => this.markClosed({ code: null, signal: null }));
    output.on("error", () => {
      /* reported through close */
    });
    this.writer = new JsonlWriter({
      write: (text) => output.write(text),
      onDrain: (listener) => {
        output.on("drain", listener);
        return { dispose: () => output.off("drain", listener) };
      },
    });
  }

  private onLine(line: string): void {
    if (line.trim() === "") return;
    const parsed = parseJsonLine(line);
    if (!parsed.ok) return this.badLineEmitter.fire({ line, error: parsed.error });
    if (parsed.notices.length > 0) this.badLineEmitter.fire({ line, error: parsed.notices.join("; "), kept: true });
    this.frameEmitter.fire(parsed.value);
  }

  /** Called by owners (process exit, stream end) exactly once. */
  protected markClosed(info: TransportClosed): void {
    if (this.closed) return;
    this.closed = true;
    this.writer.close(info.error ?? "The agent's input is closed");
    this.closeEmitter.fire(info);
  }

  protected emitStderr(text: string): void {
    this.stderrEmitter.fire(text);
  }

  send(frame: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The agent is not running"));
    return this.writer.write(frame);
  }

  /** Writes text as it is, for tests of malformed input. */
  sendRaw(text: string): Promise<void> {
    return new Promise((resolve, reject) => this.output.write(text, (error) => (error ? reject(error) : resolve())));
  }

  endInput(): void {
    this.output.end();
  }

  dispose(): void {
    this.markClosed({ code: null, signal: null, error: "disposed" });
    this.input.removeAllListeners("data");
    this.frameEmitter.dispose();
    this.badLineEmitter.dispose();
    this.stderrEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

/** A transport over plain streams that closes when the input closes. */
export function streamTransport(input: Readable, output: Writable, options?: StreamTransportOptions): FrameTransport {
  return new StreamTransport(input, output, { ...options, closeWithInput: true });
}

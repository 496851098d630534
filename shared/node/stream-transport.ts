import type { Readable, Writable } from "node:stream";
import { LineTransport } from "../rpc/line-transport";
import type { FrameTransport, TransportClosed } from "../rpc/transport";
import { PacedLines } from "./paced-lines";

export interface StreamTransportOptions {
  maxLineChars?: number;
  /** The transport closes when its input stream closes (plain streams; a child process reports its exit instead). */
  closeWithInput?: boolean;
}

/** A FrameTransport over a pair of Node streams (a child's stdio, or PassThroughs in tests). */
export class StreamTransport extends LineTransport {
  private readonly lines: PacedLines;

  constructor(
    input: Readable,
    private readonly output: Writable,
    options: StreamTransportOptions = {},
  ) {
    super({
      write: (text) => output.write(text),
      onDrain: (listener) => {
        output.on("drain", listener);
        return { dispose: () => output.off("drain", listener) };
      },
    });
    this.lines = new PacedLines(input, {
      maxLineChars: options.maxLineChars,
      onLine: (line) => this.receiveLine(line),
      onError: (error) => this.receiveBadLine(error),
    });
    if (options.closeWithInput) input.on("close", () => this.closeAfterLines({ code: null, signal: null }));
    output.on("error", () => {
      /* reported through close */
    });
  }

  /** Closes once every record read before now has been handed on (a read's records can wait a turn, paced-lines.ts). */
  protected closeAfterLines(info: TransportClosed): void {
    this.lines.afterLines(() => this.markClosed(info));
  }

  /** Writes text as it is, for tests of malformed input. */
  sendRaw(text: string): Promise<void> {
    return new Promise((resolve, reject) => this.output.write(text, (error) => (error ? reject(error) : resolve())));
  }

  endInput(): void {
    this.output.end();
  }

  override dispose(): void {
    super.dispose();
    this.lines.dispose();
  }
}

/** A transport over plain streams that closes when the input closes. */
export function streamTransport(input: Readable, output: Writable, options?: StreamTransportOptions): FrameTransport {
  return new StreamTransport(input, output, { ...options, closeWithInput: true });
}

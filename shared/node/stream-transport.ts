import type { Readable, Writable } from "node:stream";
import { LineDecoder } from "../jsonl";
import { LineTransport } from "../rpc/line-transport";
import type { FrameTransport } from "../rpc/transport";

export interface StreamTransportOptions {
  maxLineChars?: number;
  /** The transport closes when its input stream closes (plain streams; a child process reports its exit instead). */
  closeWithInput?: boolean;
}

/** A FrameTransport over a pair of Node streams (a child's stdio, or PassThroughs in tests). */
export class StreamTransport extends LineTransport {
  constructor(
    private readonly input: Readable,
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
    const decoder = new LineDecoder({
      maxLineChars: options.maxLineChars,
      onLine: (line) => this.receiveLine(line),
      onError: (error) => this.receiveBadLine(error),
    });
    input.on("data", (chunk: Buffer | string) => decoder.push(chunk));
    input.on("end", () => decoder.end());
    if (options.closeWithInput) input.on("close", () => this.markClosed({ code: null, signal: null }));
    output.on("error", () => {
      /* reported through close */
    });
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
    this.input.removeAllListeners("data");
  }
}

/** A transport over plain streams that closes when the input closes. */
export function streamTransport(input: Readable, output: Writable, options?: StreamTransportOptions): FrameTransport {
  return new StreamTransport(input, output, { ...options, closeWithInput: true });
}

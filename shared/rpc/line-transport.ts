import { JsonlWriter, parseJsonLine, type LineSink } from "../jsonl";
import { transportEvents, type FrameTransport, type TransportClosed } from "./transport";

/**
 * A FrameTransport fed line by line: the agent's records come in through `receiveLine` (each
 * without its LF), ours go out to a sink. Its owners say where lines come from: a pair of
 * streams (shared/node/stream-transport.ts) or one session of a pool of hosts, whose lines share
 * a process's stdout (extension/supervision/pool/).
 */
export abstract class LineTransport implements FrameTransport {
  private readonly emit = transportEvents();
  readonly onFrame = this.emit.events.onFrame;
  readonly onBadLine = this.emit.events.onBadLine;
  readonly onStderr = this.emit.events.onStderr;
  readonly onClose = this.emit.events.onClose;
  private readonly writer: JsonlWriter;
  private closed = false;

  constructor(sink: LineSink) {
    this.writer = new JsonlWriter(sink);
  }

  /** One record from the agent, without its LF. */
  receiveLine(line: string): void {
    if (line.trim() === "") return;
    const parsed = parseJsonLine(line);
    if (!parsed.ok) return this.emit.badLine.fire({ line, error: parsed.error });
    if (parsed.notices.length > 0) this.emit.badLine.fire({ line, error: parsed.notices.join("; "), kept: true });
    this.emit.frame.fire(parsed.value);
  }

  /** A record that could not be read at all (too long). */
  protected receiveBadLine(error: string): void {
    this.emit.badLine.fire({ line: "", error });
  }

  /** Called by owners (process exit, stream end) exactly once. */
  protected markClosed(info: TransportClosed): void {
    if (this.closed) return;
    this.closed = true;
    this.writer.close(info.error ?? "The agent's input is closed");
    this.emit.close.fire(info);
  }

  protected emitStderr(text: string): void {
    this.emit.stderr.fire(text);
  }

  protected get isClosed(): boolean {
    return this.closed;
  }

  send(frame: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The agent is not running"));
    return this.writer.write(frame);
  }

  abstract endInput(): void;

  dispose(): void {
    this.markClosed({ code: null, signal: null, error: "disposed" });
    this.emit.dispose();
  }
}

import { Emitter } from "vscode-jsonrpc";
import { JsonlWriter, parseJsonLine, type LineSink } from "../jsonl";
import type { BadLine, FrameTransport, TransportClosed } from "./transport";

/**
 * A FrameTransport fed line by line: the agent's records come in through `receiveLine` (each
 * without its LF), ours go out to a sink. Its owners say where lines come from: a pair of
 * streams (shared/node/stream-transport.ts) or one session of a pool of hosts, whose lines share
 * a process's stdout (extension/supervision/pool/).
 */
export abstract class LineTransport implements FrameTransport {
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

  constructor(sink: LineSink) {
    this.writer = new JsonlWriter(sink);
  }

  /** One record from the agent, without its LF. */
  receiveLine(line: string): void {
    if (line.trim() === "") return;
    const parsed = parseJsonLine(line);
    if (!parsed.ok) return this.badLineEmitter.fire({ line, error: parsed.error });
    if (parsed.notices.length > 0) this.badLineEmitter.fire({ line, error: parsed.notices.join("; "), kept: true });
    this.frameEmitter.fire(parsed.value);
  }

  /** A record that could not be read at all (too long). */
  protected receiveBadLine(error: string): void {
    this.badLineEmitter.fire({ line: "", error });
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
    this.frameEmitter.dispose();
    this.badLineEmitter.dispose();
    this.stderrEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

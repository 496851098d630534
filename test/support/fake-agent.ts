import { PassThrough } from "node:stream";
import { LineDecoder, encodeFrame } from "../../shared/jsonl";
import { streamTransport } from "../../shared/node/stream-transport";
import type { FrameTransport } from "../../shared/rpc/transport";

export type Frame = Record<string, unknown> & { type: string; id?: string };

/**
 * An in-process stand-in for an agent: the client side gets a real FrameTransport over
 * streams; the test answers the frames the client writes.
 */
export class FakeAgent {
  readonly transport: FrameTransport;
  readonly received: Frame[] = [];
  private readonly toClient = new PassThrough();
  private readonly fromClient = new PassThrough();
  private readonly waiters: { predicate: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  /** Answers commands automatically; return undefined to leave a command unanswered. */
  responder: ((frame: Frame) => Frame | undefined) | undefined;

  constructor() {
    this.transport = streamTransport(this.toClient, this.fromClient);
    const decoder = new LineDecoder({ onLine: (line) => line && this.receive(JSON.parse(line) as Frame) });
    this.fromClient.on("data", (chunk: Buffer) => decoder.push(chunk));
  }

  private receive(frame: Frame): void {
    this.received.push(frame);
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(frame)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
    const answer = this.responder?.(frame);
    if (answer) this.send(answer);
  }

  send(frame: object): void {
    this.toClient.write(encodeFrame(frame));
  }

  sendRaw(text: string | Buffer): void {
    this.toClient.write(text);
  }

  /** The next frame from the client that matches (or one already received). */
  next(predicate: (f: Frame) => boolean, timeoutMs = 2000): Promise<Frame> {
    const seen = this.received.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the client sent no matching frame")), timeoutMs);
      this.waiters.push({ predicate, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  }

  exit(): void {
    this.toClient.end();
    this.toClient.destroy();
  }
}

export const ok = (frame: Frame, data?: unknown): Frame => ({
  id: frame.id,
  type: "response",
  command: frame.type,
  success: true,
  ...(data === undefined ? {} : { data }),
});

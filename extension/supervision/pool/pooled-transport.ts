import { LineTransport } from "../../../shared/rpc/line-transport";
import type { TransportClosed } from "../../../shared/rpc/transport";

/** What a session needs of its pool (host-pool.ts). */
export interface PoolPort {
  readonly pid: number | undefined;
  /** Writes one of the session's records (with its LF); false when the pool's input is full. */
  write(session: string, text: string): boolean;
  onDrain(listener: () => void): { dispose(): void };
  endInput(session: string): void;
  kill(session: string): void;
}

/**
 * One session of a shared pool process (`agent-host.js --pool`): the same contract as a
 * ProcessTransport (lines in and out, stderr, exit info, stop with grace then kill), where kill
 * ends this session's worker and `pid` is the pool's.
 */
export class PooledTransport extends LineTransport {
  private ended: Promise<void>;
  private markEnded: () => void = () => undefined;
  private hasExited = false;

  constructor(
    readonly session: string,
    private readonly pool: PoolPort,
  ) {
    super({ write: (text) => pool.write(session, text), onDrain: (listener) => pool.onDrain(listener) });
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
  }

  get pid(): number | undefined {
    return this.pool.pid;
  }

  get exited(): boolean {
    return this.hasExited;
  }

  /** From the pool: the session's exit (its worker's), or the pool's own. */
  exit(info: TransportClosed): void {
    this.hasExited = true;
    this.markClosed(info);
    this.markEnded();
  }

  /** From the pool: text the session wrote to its stderr. */
  stderr(text: string): void {
    this.emitStderr(text);
  }

  endInput(): void {
    if (!this.hasExited) this.pool.endInput(this.session);
  }

  /** Ends the session's input and waits for its exit; its worker is stopped after `graceMs`. */
  async stop(graceMs = 3000): Promise<void> {
    if (this.hasExited) return;
    this.endInput();
    const timer = setTimeout(() => this.kill(), graceMs);
    await this.ended;
    clearTimeout(timer);
  }

  kill(): void {
    if (!this.hasExited) this.pool.kill(this.session);
  }

  override dispose(): void {
    this.kill();
    super.dispose();
  }
}

import { spawn, type ChildProcess } from "node:child_process";
import { POOL_CONTROL_PREFIX, type PoolInbound, type PoolOutbound } from "../../../shared/protocol/pool";
import { PacedLines } from "../../../shared/node/paced-lines";
import { POOL_MAX_LINE_CHARS, PoolLines } from "./pool-lines";
import type { PoolProcessLaunch, PooledSessionLaunch } from "./pool-launch";
import { PooledTransport, type PoolPort } from "./pooled-transport";

/**
 * One pool process of the bundled host (`agent-host.js --pool`, agent-host/pool/) and its
 * sessions. Its stdout carries every session's lines, `<session> <line>`: the hot path costs one
 * `indexOf(" ")` and a slice more than a process of one's own. It is started by its first
 * session and its input is ended when its last session has ended (then it exits); if it dies,
 * every session in it sees an exit.
 */
export class HostPool implements PoolPort {
  private readonly child: ChildProcess;
  private readonly lines: PacedLines;
  private readonly sessions = new Map<string, PooledTransport>();
  private nextSession = 0;
  private closed = false;

  constructor(
    readonly launch: PoolProcessLaunch,
    /** Called once the pool has no session left (its input is ended) or has exited. */
    private readonly onIdle: (pool: HostPool) => void,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    const router = new PoolLines(this.sessions, (frame) => this.onControl(frame), log);
    this.lines = new PacedLines(this.child.stdout!, { maxLineChars: POOL_MAX_LINE_CHARS, onLine: (line) => router.receiveLine(line), onError: (error) => log(`pool: ${error}`) });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (text: string) => this.log(`[pool stderr] ${text.trimEnd()}`));
    this.child.stdin!.on("error", () => undefined); // reported through close
    this.child.on("error", (error) => this.closeAll({ code: null, signal: null, error: error.message }));
    // Every line read before the exit is handed on first (a read's lines can wait a turn, paced-lines.ts).
    this.child.on("close", (code, signal) => this.lines.afterLines(() => this.closeAll({ code, signal, ...(code === 0 ? {} : { error: "The agents' shared process exited" }) })));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Opens a session in this pool: the host's rpc mode in a worker of its own. */
  open(launch: PooledSessionLaunch): PooledTransport {
    const session = `s${++this.nextSession}`;
    const transport = new PooledTransport(session, this);
    if (this.closed) {
      transport.exit({ code: null, signal: null, error: "The agents' shared process has exited" });
      return transport;
    }
    this.sessions.set(session, transport);
    this.control({ type: "open", session, argv: launch.argv, env: launch.env, ...(launch.resourceLimits ? { resourceLimits: launch.resourceLimits } : {}) });
    return transport;
  }

  write(session: string, text: string): boolean {
    if (this.closed || !this.sessions.has(session)) return true;
    return this.child.stdin!.write(`${session} ${text}`);
  }

  onDrain(listener: () => void): { dispose(): void } {
    this.child.stdin!.on("drain", listener);
    return { dispose: () => this.child.stdin!.off("drain", listener) };
  }

  endInput(session: string): void {
    if (this.sessions.has(session)) this.control({ type: "end", session });
  }

  kill(session: string): void {
    if (this.sessions.has(session)) this.control({ type: "kill", session });
  }

  /** Stops the pool process and every session in it. */
  dispose(): void {
    if (!this.closed) this.child.kill("SIGTERM");
  }

  private control(frame: PoolInbound): void {
    if (!this.closed) this.child.stdin!.write(`${POOL_CONTROL_PREFIX}${JSON.stringify(frame)}\n`);
  }

  private onControl(frame: PoolOutbound): void {
    const transport = this.sessions.get(frame.session);
    if (!transport) return;
    if (frame.type === "stderr") return transport.stderr(frame.text);
    this.sessions.delete(frame.session);
    transport.exit({ code: frame.code, signal: null, ...(frame.error ? { error: frame.error } : {}) });
    if (this.sessions.size === 0) {
      // The last session ended: the pool's input ends and it exits; the next session starts a new one.
      this.child.stdin!.end();
      this.closed = true;
      this.onIdle(this);
    }
  }

  private closeAll(info: { code: number | null; signal: string | null; error?: string }): void {
    const wasClosed = this.closed;
    this.closed = true;
    for (const transport of this.sessions.values()) transport.exit(info);
    this.sessions.clear();
    if (!wasClosed) this.onIdle(this);
  }
}

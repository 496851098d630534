import { Worker } from "node:worker_threads";
import type { PoolExit, PoolOpen } from "../../shared/protocol/pool";
import { LinePrefixer } from "./line-prefixer";

export interface SessionOutput {
  /** Writes bytes to the pool's stdout; false when it is full. */
  write(bytes: Buffer): boolean;
  /** A control frame to the pool's stdout. */
  control(frame: { type: string; session: string } & Record<string, unknown>): void;
  /** Called once `output` has drained after `write` returned false. */
  whenDrained(resume: () => void): void;
}

/**
 * One session of the pool: the host's rpc mode (`runCli`, agent-host/main.ts) in a worker thread,
 * its own isolate, module state and event loop, with the session's argv and environment. Its
 * stdin is fed from the pool's lines, its stdout goes out line by line with the session's id
 * before each, its stderr as `stderr` frames. It ends alone: an exception, a heap over its limit
 * or a kill end this worker only, with an `exit` frame as its last line.
 */
export class PoolSession {
  private readonly worker: Worker;
  private error: string | undefined;
  private exitCode: number | null | undefined;
  /** The worker's exit, its stdout's end and its stderr's end. */
  private pending = 3;
  private ended = false;

  constructor(
    private readonly open: PoolOpen,
    workerScript: string,
    private readonly output: SessionOutput,
    private readonly onEnded: () => void,
  ) {
    this.worker = new Worker(workerScript, {
      argv: open.argv,
      env: open.env,
      stdin: true,
      stdout: true,
      stderr: true,
      ...(open.resourceLimits ? { resourceLimits: open.resourceLimits } : {}),
    });
    const prefixer = new LinePrefixer(Buffer.from(`${open.session} `), (bytes) => output.write(bytes));
    const stdout = this.worker.stdout;
    stdout.on("data", (chunk: Buffer) => {
      if (prefixer.push(chunk)) return;
      stdout.pause();
      output.whenDrained(() => stdout.resume());
    });
    stdout.on("end", () => {
      prefixer.end();
      this.streamEnded();
    });
    this.worker.stderr.setEncoding("utf8");
    this.worker.stderr.on("data", (text: string) => output.control({ type: "stderr", session: open.session, text }));
    this.worker.stderr.on("end", () => this.streamEnded());
    // An uncaught exception, or ERR_WORKER_OUT_OF_MEMORY: this session's end, told in its exit frame.
    this.worker.on("error", (error: Error) => (this.error ??= error.stack ?? error.message));
    this.worker.on("exit", (code) => {
      this.exitCode = code;
      this.streamEnded();
    });
    // The worker's stdin is written through `write`: its errors (after the worker ended) are not the pool's.
    this.worker.stdin?.on("error", () => undefined);
  }

  get id(): string {
    return this.open.session;
  }

  /** Hands one line (without its LF) to the session's stdin; false when the worker's input is full. */
  write(line: string, onDrain: () => void): boolean {
    const stdin = this.worker.stdin;
    if (!stdin || this.exitCode !== undefined || stdin.writableEnded) return true;
    const room = stdin.write(`${line}\n`);
    if (!room) stdin.once("drain", onDrain);
    return room;
  }

  /** The end of the session's input: the host ends as at the end of its stdin. */
  endInput(): void {
    const stdin = this.worker.stdin;
    if (stdin && !stdin.writableEnded) stdin.end();
  }

  /** Stops the worker now (its shells' groups go with it: the watchdog's pipe closes, process-groups.ts). */
  kill(): void {
    void this.worker.terminate();
  }

  /** The exit frame goes after the worker's last line: once it has exited and both its streams have ended. */
  private streamEnded(): void {
    this.pending -= 1;
    if (this.pending === 0) this.sendExit();
  }

  private sendExit(): void {
    if (this.ended) return;
    this.ended = true;
    const frame: PoolExit = { type: "exit", session: this.open.session, code: this.exitCode ?? null, ...(this.error ? { error: this.error } : {}) };
    this.output.control(frame);
    this.onEnded();
  }
}

import { Worker } from "node:worker_threads";
import type { PoolExit, PoolOpen } from "../../shared/protocol/pool";
import { removeStubsOfEndedHolders } from "../../shared/node/sandbox/stubs";
import { LinePrefixer } from "./line-prefixer";

export interface SessionOutput {
  /** Writes bytes to the pool's stdout; false when it is full. */
  write(bytes: Buffer): boolean;
  /** A control frame to the pool's stdout. */
  control(frame: { type: string; session: string } & Record<string, unknown>): void;
  /** Called once `output` has drained after `write` returned false. */
  whenDrained(resume: () => void): void;
}

/** What the pool asks a session's worker to do: end as its process would on a signal, with this exit code. */
interface ExitRequest {
  type: "pool-exit";
  code: number;
}

/**
 * The worker's entry: the host, after a listener for the pool's exit request. `process.exit` in a
 * worker runs the worker's exit handlers (its shells' groups killed, the sandbox's placeholders
 * removed, tools/process-groups.ts); `worker.terminate()`, like the pool's own exit, skips them.
 */
function workerBootstrap(workerScript: string): string {
  return `const port = require("node:worker_threads").parentPort;
port.on("message", (m) => { if (m && m.type === "pool-exit" && Number.isInteger(m.code)) process.exit(m.code); });
port.unref();
require(${JSON.stringify(workerScript)});`;
}

/** How long a session asked to exit has before it is terminated (a worker stuck in a loop never reads the request). */
const EXIT_GRACE_MS = 2000;

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
  /** Resolved once the worker has exited. */
  private readonly exited: Promise<void>;

  constructor(
    private readonly open: PoolOpen,
    workerScript: string,
    private readonly output: SessionOutput,
    private readonly onEnded: () => void,
  ) {
    this.worker = new Worker(workerBootstrap(workerScript), {
      eval: true,
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
    let onExit: () => void = () => undefined;
    this.exited = new Promise((resolve) => (onExit = resolve));
    this.worker.on("exit", (code) => {
      this.exitCode = code;
      // Terminated, it released none of its sandboxes' placeholders.
      removeStubsOfEndedHolders();
      this.streamEnded();
      onExit();
    });
    // The worker's stdin is written through `write`: its errors (after the worker ended) are not the pool's.
    this.worker.stdin?.on("error", () => undefined);
  }

  get id(): string {
    return this.open.session;
  }

  /**
   * Hands one line (without its LF) to the session's stdin. What the worker has not read yet waits
   * in that stream's buffer, this session's alone, as it would in the pipe and the editor's buffer
   * of a host of its own: a worker stuck in a long synchronous call (a regular expression that
   * backtracks for ever) holds up no other session, nor the `kill` that ends it.
   */
  write(line: string): void {
    const stdin = this.worker.stdin;
    if (!stdin || this.exitCode !== undefined || stdin.writableEnded) return;
    stdin.write(`${line}\n`);
  }

  /** The end of the session's input: the host ends as at the end of its stdin. */
  endInput(): void {
    const stdin = this.worker.stdin;
    if (stdin && !stdin.writableEnded) stdin.end();
  }

  /**
   * Ends the session as a signal ends a host process: its exit handlers run (within
   * EXIT_GRACE_MS, else it is terminated: its shells' groups still go, as the watchdog's pipe
   * closes, and the next session removes its placeholders, sandbox/stub-ledger.ts).
   */
  stop(code: number): Promise<void> {
    if (this.exitCode === undefined) {
      const request: ExitRequest = { type: "pool-exit", code };
      this.worker.postMessage(request);
      const force = setTimeout(() => void this.worker.terminate(), EXIT_GRACE_MS);
      this.worker.once("exit", () => clearTimeout(force));
    }
    return this.exited;
  }

  /** Stops the worker (the control frame `kill`). */
  kill(): void {
    void this.stop(137);
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

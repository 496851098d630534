import { spawn, type ChildProcess } from "node:child_process";
import { StreamTransport, type StreamTransportOptions } from "./stream-transport";

export interface SpawnOptions extends StreamTransportOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Windows: the arguments are already quoted for cmd.exe (see the extension's spawnCommand). */
  windowsVerbatimArguments?: boolean;
}

/** An agent child process speaking JSONL on stdio. */
export class ProcessTransport extends StreamTransport {
  readonly pid: number | undefined;

  private constructor(private readonly child: ChildProcess, options: StreamTransportOptions) {
    super(child.stdout!, child.stdin!, options);
    this.pid = child.pid;
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (text: string) => this.emitStderr(text));
    child.on("error", (error) => this.markClosed({ code: null, signal: null, error: error.message }));
    // "close" waits for stdio to end, so every frame written before exit has been read (and is handed on before the close).
    child.on("close", (code, signal) => this.closeAfterLines({ code, signal }));
  }

  static spawn(command: string, args: readonly string[], options: SpawnOptions = {}): ProcessTransport {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
      ...(options.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
    });
    return new ProcessTransport(child, options);
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Close stdin and wait; kill if the agent has not exited after the grace period. */
  stop(graceMs = 3000): Promise<void> {
    return stopChild(this.child, graceMs, () => this.endInput());
  }

  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.child.kill(signal);
  }

  override dispose(): void {
    if (!this.exited) this.child.kill("SIGTERM");
    super.dispose();
  }
}

/** Ends the child's input and waits for it to exit; SIGTERM after `graceMs`, SIGKILL after twice that. */
export async function stopChild(child: ChildProcess, graceMs: number, endInput: () => void): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  endInput();
  const timer = setTimeout(() => child.kill("SIGTERM"), graceMs);
  const hardTimer = setTimeout(() => child.kill("SIGKILL"), graceMs * 2);
  await exited;
  clearTimeout(timer);
  clearTimeout(hardTimer);
}

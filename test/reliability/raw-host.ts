/**
 * The agent host driven frame by frame, for fault tests that must send what a well-behaved
 * client never would (a second answer, a late one, nothing at all, end of input mid-run).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { LineDecoder } from "../../shared/jsonl";

export type Frame = { type?: string; id?: string; [key: string]: unknown };

export class RawHost {
  readonly frames: Frame[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiters = new Set<() => void>();
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }) {
    this.child = spawn(command, args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
    const decoder = new LineDecoder({
      onLine: (text) => {
        if (!text) return;
        this.frames.push(JSON.parse(text) as Frame);
        for (const wake of [...this.waiters]) wake();
      },
    });
    this.child.stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(frame: Frame): void {
    this.child.stdin.write(`${JSON.stringify(frame)}\n`);
  }

  endInput(): void {
    this.child.stdin.end();
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** The first frame at index `from` or later that matches; rejects after `timeoutMs` (a hang). */
  waitFor(what: string, match: (frame: Frame) => boolean, from = 0, timeoutMs = 10_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.slice(from).find(match);
        if (!found) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`hang: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Sends a command and waits for its response. */
  async request(frame: Frame, timeoutMs = 10_000): Promise<Frame> {
    const from = this.frames.length;
    this.send(frame);
    return this.waitFor(`response to ${frame.type}`, (f) => f.type === "response" && f.id === frame.id, from, timeoutMs);
  }

  /**
   * Sends a prompt and answers each select dialog of its run with `answer` (undefined: cancelled)
   * until the run ends. Returns the dialogs' titles, whole, and the index of the run's first frame.
   */
  async promptAnswering(id: string, message: string, answer: (title: string) => string | undefined | Promise<string | undefined>): Promise<{ questions: string[]; from: number }> {
    const from = this.frames.length;
    this.send({ id, type: "prompt", message });
    const questions: string[] = [];
    let seen = from;
    for (;;) {
      const frame = await this.waitFor("a dialog or the end of the run", (f) => f.type === "agent_end" || (f.type === "extension_ui_request" && f.method === "select"), seen, 60_000);
      seen = this.frames.indexOf(frame) + 1;
      if (frame.type === "agent_end") return { questions, from };
      const title = String(frame.title);
      questions.push(title);
      const value = await answer(title);
      this.send(value === undefined ? { type: "extension_ui_response", id: frame.id, cancelled: true } : { type: "extension_ui_response", id: frame.id, value });
    }
  }

  /** Ends the input, waits for the exit (10 s), then kills the host if it is still there. */
  async stop(): Promise<void> {
    this.endInput();
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (!(await gone(this.pid, 2_000))) this.kill("SIGKILL");
  }
}

/** True while `pid` runs: a zombie (ended, not yet reaped by its parent) does not. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !zombie(pid);
}

/**
 * A process that has ended and waits for its parent to reap it (Linux). A pool's worker that was
 * stopped leaves its children so until the pool ends: the thread that would have reaped them is gone.
 */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

/** Waits up to `timeoutMs` for `pid` to be gone; true when it is. */
export function gone(pid: number, timeoutMs = 5_000): Promise<boolean> {
  return until(() => !alive(pid), timeoutMs);
}

/** Waits up to `timeoutMs` for `check` to hold, looking every 50 ms; true when it did. */
export async function until(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

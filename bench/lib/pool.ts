/**
 * A pool of bundled hosts for the benchmarks (`agent-host --pool`, agent-host/pool/): one process,
 * sessions opened in it with the same arguments and environment a host of their own gets
 * (test/support/peers.ts), each driven as lean as bench/lib/agent.ts drives a process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as path from "node:path";
import { peerLaunch } from "../../test/support/peers";
import type { Frame } from "./agent";

export interface PoolOptions {
  node: string;
  baseUrl: string;
  cwd: string;
  /** Node's options and the process's variables as the editor launches its host (extension/supervision/host-memory.ts). */
  editorLaunch: { nodeArgs: string[]; env: Record<string, string> };
  /** The worker's young generation cap, as the extension gives it (the semi-space flag's equivalent). */
  maxYoungGenerationSizeMb?: number;
}

type Waiter = (session: string, frame: Frame) => boolean;

export class BenchPool {
  readonly child: ChildProcessWithoutNullStreams;
  private rest = "";
  private nextId = 0;
  private readonly waiters = new Set<Waiter>();
  private readonly cleanups: (() => void)[] = [];
  private stderr = "";

  constructor(private readonly options: PoolOptions) {
    const host = path.join(__dirname, "..", "..", "dist", "agent-host.js");
    this.child = spawn(options.node, [...options.editorLaunch.nodeArgs, host, "--pool"], { cwd: options.cwd, env: { ...process.env, ...options.editorLaunch.env }, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (text: string) => this.onData(text));
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (text: string) => (this.stderr = (this.stderr + text).slice(-4000)));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private onData(text: string): void {
    const lines = (this.rest + text).split("\n");
    this.rest = lines.pop() ?? "";
    for (const line of lines) {
      const space = line.indexOf(" ");
      const session = line.slice(0, space);
      const payload = line.slice(space + 1);
      // Deltas are the bulk of a stream and nobody waits for them: don't parse them.
      if (this.waiters.size === 0 || payload.startsWith('{"type":"message_update"')) continue;
      let frame: Frame;
      try {
        frame = JSON.parse(payload) as Frame;
      } catch {
        continue;
      }
      for (const waiter of [...this.waiters]) if (waiter(session, frame)) this.waiters.delete(waiter);
    }
  }

  /** Opens a session as test/support/peers.ts would launch a host of its own, and waits for its first get_state. */
  async open(session: string): Promise<void> {
    const launch = peerLaunch("host", { mockBaseUrl: this.options.baseUrl, cwd: this.options.cwd });
    this.cleanups.push(() => launch.cleanup());
    const env = Object.fromEntries(Object.entries({ ...launch.env, ...this.options.editorLaunch.env }).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const resourceLimits = this.options.maxYoungGenerationSizeMb ? { maxYoungGenerationSizeMb: this.options.maxYoungGenerationSizeMb } : undefined;
    this.child.stdin.write(`! ${JSON.stringify({ type: "open", session, argv: launch.args.slice(1), env, ...(resourceLimits ? { resourceLimits } : {}) })}\n`);
    await this.request(session, { type: "get_state" });
  }

  waitFor(session: string, match: (frame: Frame) => boolean, timeoutMs = 120_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`pool session ${session}: no awaited frame within ${timeoutMs} ms; stderr: ${this.stderr}`));
      }, timeoutMs);
      const waiter: Waiter = (from, frame) => {
        if (from !== session || !match(frame)) return false;
        clearTimeout(timer);
        resolve(frame);
        return true;
      };
      this.waiters.add(waiter);
    });
  }

  async request(session: string, command: Record<string, unknown>): Promise<Frame> {
    const id = `p${++this.nextId}`;
    const response = this.waitFor(session, (frame) => frame.type === "response" && frame.id === id);
    this.child.stdin.write(`${session} ${JSON.stringify({ ...command, id })}\n`);
    const frame = await response;
    if (frame.success !== true) throw new Error(`pool session ${session}: ${String(command.type)} failed: ${frame.error ?? ""}`);
    return frame;
  }

  async promptToSettled(session: string, message: string): Promise<void> {
    const settled = this.waitFor(session, (frame) => frame.type === "agent_settled");
    await this.request(session, { type: "prompt", message });
    await settled;
  }

  /** Ends the pool's input (every session's with it) and waits for the pool to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}

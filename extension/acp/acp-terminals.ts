/**
 * ACP's `terminal/*`: the commands an agent runs through the client. Each is a child process, run
 * only in the agent's folder, whose output is kept (bounded by the agent's `outputByteLimit`, and
 * by ours whatever it asks; cut at the front on a character boundary, as the spec asks), reported
 * chunk by chunk to a listener (the tool card, and in the editor a pseudo-terminal) and killed on
 * cancel. No shell unless the agent names one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { resolveWorkspacePath } from "../host-tools/workspace-paths";
import { visible } from "./acp-permission";

/**
 * A command line as a terminal or a tab may show it: every control character visible (newlines
 * kept), so that an agent's command name cannot drive the terminal (clear it, retitle it, forge
 * lines or links) or hide text.
 */
export function terminalCommandText(command: string): string {
  return visible(command).replace(/\t/g, "\\t");
}

export interface TerminalListener {
  /** A chunk of output, as it came (the text kept is read with `tail` or `output`). */
  output(terminalId: string, chunk: string): void;
  /** A terminal was created (the editor opens a pseudo-terminal for it). */
  created?(terminalId: string, command: string): void;
  exited?(terminalId: string, status: acp.TerminalExitStatus): void;
}

interface Running {
  child: ChildProcess;
  /** At most twice the limit (cut back to it when it grows past): appending stays linear. */
  output: string;
  bytes: number;
  truncated: boolean;
  limit: number;
  exit: Promise<acp.TerminalExitStatus>;
  status: acp.TerminalExitStatus | undefined;
}

/** The most output kept per terminal, whatever the agent asks (its default too). */
export const MAX_OUTPUT_BYTES = 1_000_000;

/** What a released terminal keeps for its card, and how many released ones keep it. */
const RELEASED_TAIL_BYTES = 64 * 1024;
const RELEASED_KEPT = 32;
/** Commands running at once for one agent: a flood of terminal/create is refused past it. */
export const MAX_RUNNING = 16;

/** The bytes kept: the agent's limit, within ours (a negative or absurd one is ours). */
function limitOf(asked: number | null | undefined): number {
  return typeof asked === "number" && Number.isFinite(asked) && asked >= 0 ? Math.min(Math.floor(asked), MAX_OUTPUT_BYTES) : MAX_OUTPUT_BYTES;
}

/** Drops characters from the front until the UTF-8 size fits (never splitting a character). */
export function keepTail(text: string, limit: number): { text: string; truncated: boolean } {
  if (Buffer.byteLength(text, "utf8") <= limit) return { text, truncated: false };
  const bytes = Buffer.from(text, "utf8");
  let start = bytes.length - limit;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++; // not inside a character
  return { text: bytes.subarray(start).toString("utf8"), truncated: true };
}

export class AcpTerminals {
  private readonly terminals = new Map<string, Running>();
  private readonly released = new Map<string, { output: string; truncated: boolean }>();
  private counter = 0;

  constructor(
    private readonly cwd: string,
    private readonly listener: TerminalListener,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    const cwd = this.confined(params.cwd);
    const running = [...this.terminals.values()].filter((t) => !t.status).length;
    if (running >= MAX_RUNNING) throw new Error(`${running} commands are running already: wait for one to end (or release it) before starting another.`);
    const terminalId = `term-${++this.counter}`;
    const env = { ...this.env };
    for (const variable of params.env ?? []) env[variable.name] = variable.value;
    // Without args the agent gives a command line (gemini, claude-code-acp): a shell reads it.
    const child = params.args && params.args.length > 0
      ? spawn(params.command, params.args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" })
      : spawn(params.command, { cwd, env, stdio: ["ignore", "pipe", "pipe"], shell: true, detached: process.platform !== "win32" });
    const terminal: Running = { child, output: "", bytes: 0, truncated: false, limit: limitOf(params.outputByteLimit), exit: undefined as never, status: undefined };
    terminal.exit = new Promise((resolve) => {
      child.on("error", (error) => {
        this.append(terminalId, terminal, `${error.message}\n`);
        terminal.status = { exitCode: 127, signal: null };
        resolve(terminal.status);
      });
      child.on("close", (code, signal) => {
        terminal.status ??= { exitCode: code, signal };
        this.listener.exited?.(terminalId, terminal.status);
        resolve(terminal.status);
      });
    });
    // Decoded per stream: a character split between two chunks is not broken.
    const onData = (chunk: string) => this.append(terminalId, terminal, chunk);
    child.stdout!.setEncoding("utf8").on("data", onData);
    child.stderr!.setEncoding("utf8").on("data", onData);
    this.terminals.set(terminalId, terminal);
    this.listener.created?.(terminalId, [params.command, ...(params.args ?? [])].join(" "));
    return { terminalId };
  }

  output(terminalId: string): acp.TerminalOutputResponse {
    const running = this.get(terminalId);
    this.trim(running);
    return { output: running.output, truncated: running.truncated, ...(running.status ? { exitStatus: running.status } : {}) };
  }

  /** The end of a terminal's output, at most `maxBytes` (the tool card's view); undefined for one not known. */
  tail(terminalId: string, maxBytes: number): string | undefined {
    const live = this.terminals.get(terminalId);
    if (live) this.trim(live);
    const running = live ?? this.released.get(terminalId);
    if (!running) return undefined;
    const kept = keepTail(running.output, maxBytes);
    return kept.truncated || running.truncated ? `…\n${kept.text}` : kept.text;
  }

  async waitForExit(terminalId: string): Promise<acp.WaitForTerminalExitResponse> {
    const status = await this.get(terminalId).exit;
    return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
  }

  kill(terminalId: string): void {
    this.killProcess(this.get(terminalId));
  }

  /**
   * The agent is done with it: the command is killed and the id no longer serves the agent. Its
   * output's end stays readable by `tail` (the card of the call that ran it may end after this),
   * for the last RELEASED_KEPT terminals.
   */
  release(terminalId: string): void {
    const running = this.terminals.get(terminalId);
    if (!running) return;
    this.killProcess(running);
    this.terminals.delete(terminalId);
    this.trim(running);
    this.released.set(terminalId, { output: keepTail(running.output, RELEASED_TAIL_BYTES).text, truncated: running.truncated || Buffer.byteLength(running.output, "utf8") > RELEASED_TAIL_BYTES });
    for (const id of this.released.keys()) {
      if (this.released.size <= RELEASED_KEPT) break;
      this.released.delete(id);
    }
  }

  /** Cancel: every command still running is killed (the terminals stay readable). */
  killAll(): void {
    for (const running of this.terminals.values()) this.killProcess(running);
  }

  dispose(): void {
    for (const id of [...this.terminals.keys()]) this.release(id);
    this.released.clear();
  }

  private get(terminalId: string): Running {
    const running = this.terminals.get(terminalId);
    if (!running) throw new Error(`No terminal ${terminalId}`);
    return running;
  }

  /** The folder a command runs in: the agent's, or one inside it (symlinks resolved). */
  private confined(cwd: string | null | undefined): string {
    if (cwd === null || cwd === undefined) return this.cwd;
    try {
      if (!path.isAbsolute(cwd)) throw new Error("relative");
      return resolveWorkspacePath(cwd, [this.cwd]).absPath;
    } catch {
      throw new Error(`The terminal's folder "${cwd}" is outside the workspace (${this.cwd}): commands run only there.`);
    }
  }

  private append(terminalId: string, running: Running, chunk: string): void {
    running.output += chunk;
    running.bytes += Buffer.byteLength(chunk, "utf8");
    if (running.bytes > running.limit) running.truncated = true;
    if (running.bytes > 2 * running.limit + 65_536) this.trim(running);
    this.listener.output(terminalId, chunk);
  }

  /** Cuts the kept output back to the limit (O(limit), at most once per limit's worth of output). */
  private trim(running: Running): void {
    if (running.bytes <= running.limit) return;
    running.output = keepTail(running.output, running.limit).text;
    running.bytes = Buffer.byteLength(running.output, "utf8");
  }

  private killProcess(running: Running): void {
    if (running.status || running.child.exitCode !== null || !running.child.pid) return;
    try {
      // The whole group: a shell's children die with it.
      if (process.platform !== "win32") process.kill(-running.child.pid, "SIGKILL");
      else running.child.kill("SIGKILL");
    } catch {
      running.child.kill("SIGKILL"); // the group is gone already: the process alone
    }
  }
}

/**
 * ACP's `terminal/*`: the commands an agent runs through the client. Each is a child process whose
 * output is kept (bounded by the agent's `outputByteLimit`, cut at the front on a character
 * boundary, as the spec asks), reported to a listener (the tool card, and in the editor a
 * pseudo-terminal) and killed on cancel. No shell unless the agent names one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };

export interface TerminalListener {
  /** The whole output kept so far, after each chunk. */
  output(terminalId: string, text: string): void;
  /** A terminal was created (the editor opens a pseudo-terminal for it). */
  created?(terminalId: string, command: string): void;
  exited?(terminalId: string, status: acp.TerminalExitStatus): void;
}

interface Running {
  child: ChildProcess;
  output: string;
  truncated: boolean;
  limit: number;
  exit: Promise<acp.TerminalExitStatus>;
  status: acp.TerminalExitStatus | undefined;
}

const DEFAULT_LIMIT = 1_000_000;

/** Drops characters from the front until the UTF-8 size fits (never splitting a character). */
function keepTail(text: string, limit: number): { text: string; truncated: boolean } {
  if (Buffer.byteLength(text, "utf8") <= limit) return { text, truncated: false };
  const bytes = Buffer.from(text, "utf8");
  let start = bytes.length - limit;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++; // not inside a character
  return { text: bytes.subarray(start).toString("utf8"), truncated: true };
}

export class AcpTerminals {
  private readonly terminals = new Map<string, Running>();
  private counter = 0;

  constructor(
    private readonly cwd: string,
    private readonly listener: TerminalListener,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    const terminalId = `term-${++this.counter}`;
    const env = { ...this.env };
    for (const variable of params.env ?? []) env[variable.name] = variable.value;
    // Without args the agent gives a command line (gemini, claude-code-acp): a shell reads it.
    const child = params.args && params.args.length > 0
      ? spawn(params.command, params.args, { cwd: params.cwd ?? this.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" })
      : spawn(params.command, { cwd: params.cwd ?? this.cwd, env, stdio: ["ignore", "pipe", "pipe"], shell: true, detached: process.platform !== "win32" });
    const running: Running = { child, output: "", truncated: false, limit: params.outputByteLimit ?? DEFAULT_LIMIT, exit: undefined as never, status: undefined };
    running.exit = new Promise((resolve) => {
      child.on("error", (error) => {
        this.append(terminalId, running, `${error.message}\n`);
        running.status = { exitCode: 127, signal: null };
        resolve(running.status);
      });
      child.on("close", (code, signal) => {
        running.status ??= { exitCode: code, signal };
        this.listener.exited?.(terminalId, running.status);
        resolve(running.status);
      });
    });
    const onData = (chunk: Buffer) => this.append(terminalId, running, chunk.toString("utf8"));
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    this.terminals.set(terminalId, running);
    this.listener.created?.(terminalId, [params.command, ...(params.args ?? [])].join(" "));
    return { terminalId };
  }

  output(terminalId: string): acp.TerminalOutputResponse {
    const running = this.get(terminalId);
    return { output: running.output, truncated: running.truncated, ...(running.status ? { exitStatus: running.status } : {}) };
  }

  async waitForExit(terminalId: string): Promise<acp.WaitForTerminalExitResponse> {
    const status = await this.get(terminalId).exit;
    return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
  }

  kill(terminalId: string): void {
    this.killProcess(this.get(terminalId));
  }

  release(terminalId: string): void {
    const running = this.terminals.get(terminalId);
    if (!running) return;
    this.killProcess(running);
    this.terminals.delete(terminalId);
  }

  /** Cancel: every command still running is killed (the terminals stay readable). */
  killAll(): void {
    for (const running of this.terminals.values()) this.killProcess(running);
  }

  dispose(): void {
    for (const id of [...this.terminals.keys()]) this.release(id);
  }

  private get(terminalId: string): Running {
    const running = this.terminals.get(terminalId);
    if (!running) throw new Error(`No terminal ${terminalId}`);
    return running;
  }

  private append(terminalId: string, running: Running, text: string): void {
    const kept = keepTail(running.output + text, running.limit);
    running.output = kept.text;
    running.truncated ||= kept.truncated;
    this.listener.output(terminalId, running.output);
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

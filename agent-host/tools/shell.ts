/**
 * The local ShellIo: bash (or sh) in its own process group, so an abort or a timeout kills the
 * command and everything it started, and what it leaves in the background ends with the host.
 * With a ToolSandbox the shell runs inside the OS sandbox; when it failed because of the sandbox,
 * the user is asked whether to run it again outside (the model reads the note either way).
 */
import { existsSync } from "node:fs";
import { access } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { ShellAbortedError, ShellTimeoutError, type ShellExecOptions, type ShellIo } from "./io";
import { waitForExit } from "./process";
import { killGroup, spawnTracked } from "./process-groups";
import { plainLaunch, type Start, type ToolSandbox } from "./tool-sandbox";

export interface ShellConfig {
  shell: string;
  args: string[];
}

/** An explicit shell path, else /bin/bash, else bash on PATH, else sh (as pi picks it on Unix). */
export function resolveShell(shellPath?: string): ShellConfig {
  if (shellPath) {
    if (!existsSync(shellPath)) throw new Error(`Custom shell path not found: ${shellPath}`);
    return { shell: shellPath, args: ["-c"] };
  }
  if (existsSync("/bin/bash")) return { shell: "/bin/bash", args: ["-c"] };
  const onPath = (process.env.PATH ?? "").split(":").find((dir) => dir && existsSync(`${dir}/bash`));
  return onPath ? { shell: `${onPath}/bash`, args: ["-c"] } : { shell: "sh", args: ["-c"] };
}

/** How much of the output's end is kept to tell whether the sandbox refused something. */
const TAIL_CHARS = 16_384;

export function createLocalShellIo(shellPath?: string, sandbox?: ToolSandbox): ShellIo {
  return {
    async exec(command, cwd, options) {
      if (options.signal.aborted) throw new ShellAbortedError();
      const { shell, args } = resolveShell(shellPath);
      try {
        await access(cwd);
      } catch {
        throw new Error(`Working directory does not exist: ${cwd}\nCannot execute bash commands.`);
      }
      const argv = [shell, ...args, command];
      const launch = sandbox ? await sandbox.launch(argv, cwd, command, options.signal) : plainLaunch(argv);
      if ("refused" in launch) throw new Error(launch.refused);
      if (!sandbox || !launch.sandboxed) return runOnce(launch, cwd, options);
      let tail = "";
      const started = Date.now();
      const exitCode = (
        await runOnce(launch, cwd, {
          ...options,
          onData: (chunk) => {
            tail = (tail + chunk.toString("utf8")).slice(-TAIL_CHARS);
            options.onData(chunk);
          },
        })
      ).exitCode;
      // Before anything else reads the workspace (the model, then the editor's git): what it made of a protected path is moved aside.
      const swept = launch.sweep();
      if (swept) options.onData(Buffer.from(`\n${swept}\n`));
      const reason = exitCode === 0 ? undefined : sandbox.denial(tail, started);
      if (!reason) return { exitCode };
      if (!(await sandbox.allowOutside(command, reason, options.signal))) {
        if (options.signal.aborted) throw new ShellAbortedError();
        options.onData(Buffer.from(`\n[sandbox: ${reason}. Running it again outside the sandbox was denied by the user.]\n`));
        return { exitCode };
      }
      options.onData(Buffer.from(`\n[sandbox: ${reason}. The user allowed running it again outside the sandbox; its output follows.]\n`));
      return runOnce(plainLaunch(argv), cwd, options);
    },
  };
}

async function runOnce(launch: Start, cwd: string, { onData, signal, timeoutMs, env }: ShellExecOptions): Promise<{ exitCode: number }> {
  if (signal.aborted) {
    launch.release();
    throw new ShellAbortedError();
  }
  const { child, release } = spawnTracked(launch.file, launch.args, { cwd, env: env ?? process.env }, launch.release);
  let timedOut = false;
  const kill = () => {
    if (child.pid) killGroup(child.pid);
  };
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          kill();
        }, timeoutMs);
  signal.addEventListener("abort", kill, { once: true });
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  try {
    const code = await waitForExit(child);
    if (signal.aborted) throw new ShellAbortedError();
    if (timedOut) throw new ShellTimeoutError(timeoutMs ?? 0);
    // Killed by a signal: no exit code, so report the shell convention 128 + signal number.
    const byName = child.signalCode ? osConstants.signals[child.signalCode] : undefined;
    return { exitCode: code ?? (byName ? 128 + byName : 1) };
  } finally {
    if (timer) clearTimeout(timer);
    signal.removeEventListener("abort", kill);
    release();
  }
}

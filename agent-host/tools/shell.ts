/**
 * The local ShellIo: bash (or sh) in its own process group, so an abort or a timeout kills the
 * command and everything it started, and what it leaves in the background ends with the host.
 */
import { existsSync } from "node:fs";
import { access } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { ShellAbortedError, ShellTimeoutError, type ShellIo } from "./io";
import { waitForExit } from "./process";
import { killGroup, trackProcessGroup } from "./process-groups";
import { childProcess } from "./lazy-node";

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

export function createLocalShellIo(shellPath?: string): ShellIo {
  return {
    async exec(command, cwd, { onData, signal, timeoutMs, env }) {
      if (signal.aborted) throw new ShellAbortedError();
      const { shell, args } = resolveShell(shellPath);
      try {
        await access(cwd);
      } catch {
        throw new Error(`Working directory does not exist: ${cwd}\nCannot execute bash commands.`);
      }
      const child = childProcess().spawn(shell, [...args, command], {
        cwd,
        detached: process.platform !== "win32",
        env: env ?? process.env,
        stdio: ["ignore", "pipe", "pipe"],
        windowsHide: true,
      });
      const release = child.pid ? trackProcessGroup(child.pid) : () => undefined;
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
    },
  };
}

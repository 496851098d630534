/**
 * The bash tool's shell served by the ACP client's terminal (terminal/create, output, wait, kill,
 * release) when it offers one and the host runs no OS sandbox (--sandbox keeps commands in our
 * sandbox, which a client's terminal is not). The command runs as `bash -c <command>` in the
 * client's terminal, with the client's environment; its output is polled while it runs and given
 * to the tool as it grows (the tool keeps the tail and the limits, as for a local shell); abort
 * and timeout kill it. `onTerminal` names the terminal so the tool call can show it.
 */
import type { AgentContext } from "./sdk";
import { ShellAbortedError, ShellTimeoutError, type ShellIo } from "../tools/io";

const POLL_MS = 200;
/** What the client keeps of a command's output (its tail); the tool truncates for the model. */
const OUTPUT_LIMIT = 4 * 1024 * 1024;

export function clientShellIo(client: () => AgentContext, sessionId: () => string, onTerminal: (command: string, terminalId: string) => void): ShellIo {
  return {
    async exec(command, cwd, options) {
      if (options.signal.aborted) throw new ShellAbortedError();
      const terminal = await client().createTerminal({ sessionId: sessionId(), command: "bash", args: ["-c", command], cwd, outputByteLimit: OUTPUT_LIMIT });
      onTerminal(command, terminal.id);
      let seen = "";
      const forward = (output: string) => {
        // Output grows; once the client cuts its start (over the limit), what follows the old text is not findable: pass on the new text whole.
        const next = output.startsWith(seen) ? output.slice(seen.length) : output;
        seen = output;
        if (next) options.onData(Buffer.from(next, "utf8"));
      };
      let stopped: "aborted" | "timeout" | undefined;
      const stop = (why: "aborted" | "timeout") => {
        stopped ??= why;
        terminal.kill().catch(() => undefined); // the command may have ended meanwhile
      };
      const onAbort = () => stop("aborted");
      options.signal.addEventListener("abort", onAbort, { once: true });
      const timer = options.timeoutMs !== undefined ? setTimeout(() => stop("timeout"), options.timeoutMs) : undefined;
      let polling = true;
      const poll = (async () => {
        while (polling) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          if (polling) forward((await terminal.currentOutput()).output);
        }
      })().catch(() => undefined); // the terminal was released: the final read below tells
      try {
        const exit = await terminal.waitForExit();
        polling = false;
        await poll;
        forward((await terminal.currentOutput()).output);
        if (stopped === "aborted") throw new ShellAbortedError();
        if (stopped === "timeout") throw new ShellTimeoutError(options.timeoutMs!);
        return { exitCode: exit.exitCode ?? 1 };
      } finally {
        polling = false;
        if (timer) clearTimeout(timer);
        options.signal.removeEventListener("abort", onAbort);
        await terminal.release().catch(() => undefined); // a client that already dropped it
      }
    },
  };
}

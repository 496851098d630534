/**
 * bash: runs a command in the tool's cwd, streams its output (throttled) through onUpdate, keeps
 * the tail within the output limits and saves the full output to a temp file when it is cut.
 * A non-zero exit, a timeout or an abort is an error result carrying the output so far.
 */
import { Type } from "@sinclair/typebox";
import type { AgentTool, AgentToolResult } from "../agent/tool";
import { ShellAbortedError, ShellTimeoutError, type ShellIo } from "./io";
import { OutputCollector, type OutputSnapshot } from "./output";
import { createLocalShellIo } from "./shell";
import type { ToolSandbox } from "./tool-sandbox";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult } from "./truncate";

export const bashSchema = Type.Object({
  command: Type.String({ description: "Shell command to execute" }),
  timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (optional, no default timeout)" })),
});

export interface BashToolDetails {
  truncation?: TruncationResult;
  fullOutputPath?: string;
  /** Not in pi's details: the exit code when the command finished. */
  exitCode?: number;
}

export interface BashToolOptions {
  io?: ShellIo;
  /** Shell binary for the local ShellIo (default: /bin/bash, bash on PATH, sh). */
  shellPath?: string;
  /** Lines run before every command (e.g. `shopt -s expand_aliases`). */
  commandPrefix?: string;
  /** Environment for commands (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Minimum time between streamed updates, ms (pi: 100). */
  updateIntervalMs?: number;
  /** Where full outputs are saved (default: the OS temp dir). */
  tempDir?: string;
  /** The OS sandbox the local shell runs in (--sandbox). */
  sandbox?: ToolSandbox;
}

const MAX_TIMEOUT_MS = 2_147_483_647;

function timeoutMs(timeout: number | undefined): number | undefined {
  if (timeout === undefined) return undefined;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new Error("Invalid timeout: must be a finite number of seconds");
  if (timeout * 1000 > MAX_TIMEOUT_MS) throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_MS / 1000} seconds`);
  return timeout * 1000;
}

/** The text the model sees: the tail of the output plus a notice saying where the rest is. */
function formatOutput(snapshot: OutputSnapshot, lastLineBytes: number, emptyText: string): string {
  const { truncation: t, fullOutputPath } = snapshot;
  let text = snapshot.content || emptyText;
  if (!t.truncated) return text;
  const first = t.totalLines - t.outputLines + 1;
  if (t.lastLinePartial) {
    text += `\n\n[Showing last ${formatSize(t.outputBytes)} of line ${t.totalLines} (line is ${formatSize(lastLineBytes)}). Full output: ${fullOutputPath}]`;
  } else if (t.truncatedBy === "lines") {
    text += `\n\n[Showing lines ${first}-${t.totalLines} of ${t.totalLines}. Full output: ${fullOutputPath}]`;
  } else {
    text += `\n\n[Showing lines ${first}-${t.totalLines} of ${t.totalLines} (${formatSize(DEFAULT_MAX_BYTES)} limit). Full output: ${fullOutputPath}]`;
  }
  return text;
}

export function createBashTool(cwd: string, options: BashToolOptions = {}): AgentTool<typeof bashSchema, BashToolDetails | undefined> {
  const io = options.io ?? createLocalShellIo(options.shellPath, options.sandbox);
  const interval = options.updateIntervalMs ?? 100;
  return {
    name: "bash",
    label: "bash",
    description: `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`,
    parameters: bashSchema,
    async execute(_id, { command, timeout }, signal, onUpdate) {
      const limitMs = timeoutMs(timeout);
      const output = new OutputCollector({ tempFilePrefix: "pi-bash", tempDir: options.tempDir });
      const details = (s: OutputSnapshot): BashToolDetails | undefined =>
        s.truncation.truncated ? { truncation: s.truncation, fullOutputPath: s.fullOutputPath } : undefined;

      let timer: NodeJS.Timeout | undefined;
      let dirty = false;
      let lastUpdate = 0;
      let accepting = true;
      const emitUpdate = () => {
        timer = undefined;
        if (!dirty) return;
        dirty = false;
        lastUpdate = Date.now();
        const snap = output.snapshot();
        onUpdate({ content: [{ type: "text", text: snap.content }], details: details(snap) });
      };
      const onData = (chunk: Buffer) => {
        if (!accepting) return;
        output.append(chunk);
        dirty = true;
        const wait = interval - (Date.now() - lastUpdate);
        if (wait <= 0) {
          if (timer) clearTimeout(timer);
          emitUpdate();
        } else timer ??= setTimeout(emitUpdate, wait);
      };
      const finish = async () => {
        accepting = false;
        output.finish();
        if (timer) clearTimeout(timer);
        emitUpdate();
        const snap = output.snapshot();
        await output.close();
        return snap;
      };
      const fail = (text: string, status: string, extra?: BashToolDetails): AgentToolResult<BashToolDetails | undefined> => ({
        content: [{ type: "text", text: `${text ? `${text}\n\n` : ""}${status}` }],
        details: extra,
        isError: true,
      });

      onUpdate({ content: [], details: undefined });
      const line = options.commandPrefix ? `${options.commandPrefix}\n${command}` : command;
      let exitCode: number;
      try {
        ({ exitCode } = await io.exec(line, cwd, { onData, signal, timeoutMs: limitMs, env: options.env }));
      } catch (error) {
        const snap = await finish();
        const text = formatOutput(snap, output.lastLineBytes, "");
        if (error instanceof ShellAbortedError) return fail(text, "Command aborted", details(snap));
        if (error instanceof ShellTimeoutError) return fail(text, `Command timed out after ${timeout} seconds`, details(snap));
        throw error;
      }
      const snap = await finish();
      const text = formatOutput(snap, output.lastLineBytes, "(no output)");
      if (exitCode !== 0) return fail(text, `Command exited with code ${exitCode}`, { ...details(snap), exitCode });
      return { content: [{ type: "text", text }], details: details(snap) };
    },
  };
}

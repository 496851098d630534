import type { BashResult } from "../../shared/protocol";
import { ShellAbortedError, type ShellIo } from "../tools/io";
import { OutputCollector } from "../tools/output";
import { createLocalShellIo } from "../tools/shell";

/**
 * The RPC `bash` command: a shell command the user runs (not the model). Output streams to
 * `onChunk` as it comes; the result keeps the tail within pi's limits and the full output in a
 * temp file when it was cut.
 */
export async function runUserBash(command: string, cwd: string, onChunk: (text: string) => void, signal: AbortSignal, env?: NodeJS.ProcessEnv, shell: ShellIo = createLocalShellIo()): Promise<BashResult> {
  const collector = new OutputCollector({ tempFilePrefix: "pi-bash" });
  const decoder = new TextDecoder();
  let exitCode: number | undefined;
  let cancelled = false;
  try {
    const result = await shell.exec(command, cwd, {
      signal,
      ...(env ? { env } : {}),
      onData: (chunk) => {
        collector.append(chunk);
        const text = decoder.decode(chunk, { stream: true });
        if (text) onChunk(text);
      },
    });
    exitCode = result.exitCode;
  } catch (error) {
    if (!(error instanceof ShellAbortedError)) throw error;
    cancelled = true;
  }
  collector.finish();
  const snapshot = collector.snapshot();
  await collector.close();
  return {
    output: snapshot.content,
    exitCode,
    cancelled,
    truncated: snapshot.truncation.truncated,
    ...(snapshot.fullOutputPath ? { fullOutputPath: snapshot.fullOutputPath } : {}),
  };
}

import type { TransportClosed } from "./transport";

/**
 * What failed, in one line, from the stderr of an agent that exited: the line that names the
 * error (a JavaScript error before its stack frames, a Python traceback's last line, "node: bad
 * option"), not the tail of a stack. Terminal escapes and control characters are taken out.
 */
const maxLength = 300;
const escapes = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*(?:\u0007|\u001b\\)|[\u0000-\u0008\u000b-\u001f\u007f]/g;
/** Lines of a stack or traceback: where, not what (bun also prints the source lines around the throw, "4722 | …", and a caret line). */
const frame = /^\s*(at\s|File\s"|Traceback \(most recent call last\)|\.\.\.\s*\d+\s+more|\d+\s+\|\s|\^+\s*$)/;
const errorWord = /\b(error|fatal|failed|failure|cannot|can't|could not|denied|not permitted|not found|bad option|panic|exception|refused)\b/i;

export function stderrCause(stderr: string): string | undefined {
  const lines = stderr.replace(escapes, "").split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    if (frame.test(line)) {
      // A Python frame's next line is its source code.
      if (/^\s*File\s"/.test(line) && i + 1 < lines.length && /^\s{4,}/.test(lines[i + 1])) i++;
      continue;
    }
    kept.push(line.trim());
  }
  if (kept.length === 0) return undefined;
  // A traceback names its error last; a JavaScript error comes before its frames: the first line naming an error (not a Node warning), else the last line.
  const found = lines.some((line) => /^Traceback/.test(line)) ? kept.at(-1) : (kept.find((line) => errorWord.test(line) && !/^\(\w+:\d+\)\s*Warning/.test(line)) ?? kept.at(-1));
  return found && found.length > maxLength ? found.slice(0, maxLength) : found;
}

/** An agent's stderr, the last ~8,000 characters of it kept: for the cause of its exit. */
export function stderrTail(): { keep(text: string): void; recent(): string; exitMessage(info: TransportClosed): string } {
  const parts: string[] = [];
  let size = 0;
  const recent = () => parts.join("").slice(-4000);
  return {
    keep(text) {
      parts.push(text);
      size += text.length;
      while (size > 8000 && parts.length > 1) size -= parts.shift()!.length;
    },
    recent,
    exitMessage(info) {
      const how = info.error ?? (info.signal ? `signal ${info.signal}` : `code ${info.code}`);
      // What failed in one line (the whole stderr is the log's): a stack's tail says where, not what.
      const cause = stderrCause(recent());
      return `The agent exited (${how})${cause ? `: ${cause}` : ""}`;
    },
  };
}

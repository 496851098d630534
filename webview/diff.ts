/** A line diff for the inline view of edit and write tool calls. */
import { runsOfLines } from "../shared/line-diff";

export interface DiffLine {
  op: " " | "-" | "+" | "…";
  text: string;
}

/** The lines of `before` and `after` compared (shared/line-diff.ts, the `diff` library); CRLF and a final newline do not count. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const op = { equal: " ", add: "+", remove: "-" } as const;
  return runsOfLines(splitLines(before), splitLines(after)).flatMap((run) => run.lines.map((text): DiffLine => ({ op: op[run.kind], text })));
}

/** Keeps `context` unchanged lines around each change; longer unchanged runs become one "…" line. */
export function withContext(lines: DiffLine[], context = 3): DiffLine[] {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.op === " ") return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) keep[k] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped > 0) out.push({ op: "…", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0 && out.length > 0) out.push({ op: "…", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
  return out;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The edits of an edit tool call (Pi's `edits[]`, or an older single oldText/newText). */
export function editsOf(args: unknown): { oldText: string; newText: string }[] {
  if (!args || typeof args !== "object") return [];
  const a = args as Record<string, unknown>;
  const raw: unknown[] = Array.isArray(a.edits) ? a.edits : typeof a.oldText === "string" ? [{ oldText: a.oldText, newText: a.newText }] : [];
  return raw.flatMap((e) => {
    const { oldText, newText } = (e ?? {}) as { oldText?: unknown; newText?: unknown };
    return typeof oldText === "string" && typeof newText === "string" ? [{ oldText, newText }] : [];
  });
}

/**
 * The edit tool's diffs: a display diff in pi's format (`+12 line`, `-12 line`, ` 12 line`,
 * ` ... ` for skipped context) and a standard unified patch, both from shared/line-diff.ts (the
 * `diff` library), loaded when the first edit needs it.
 */
import type { LineRun } from "../../shared/line-diff";

export type DiffPart = LineRun;

const lineDiff = (): typeof import("../../shared/line-diff") => require("../../shared/line-diff") as typeof import("../../shared/line-diff");

/** The changes from `a` to `b`, grouped; within a change, removals come before additions. */
export const diffLines = (a: string, b: string): DiffPart[] => lineDiff().lineRuns(a, b);

const stripEnding = (line: string) => (line.endsWith("\n") ? line.slice(0, -1) : line);

/**
 * pi's display diff: changed lines with their line numbers (new numbers for additions, old for
 * removals and context), up to `contextLines` of context around each change, ` ... ` for the rest.
 */
export function generateDiffString(oldText: string, newText: string, contextLines = 4): { diff: string; firstChangedLine?: number } {
  const parts = lineDiff().lineRuns(oldText, newText);
  const width = String(Math.max(oldText.split("\n").length, newText.split("\n").length)).length;
  const num = (n: number) => String(n).padStart(width, " ");
  const skip = ` ${"".padStart(width, " ")} ...`;
  const out: string[] = [];
  let oldNo = 1;
  let newNo = 1;
  let firstChangedLine: number | undefined;
  const context = (lines: string[]) => {
    for (const line of lines) out.push(` ${num(oldNo++)} ${stripEnding(line)}`), newNo++;
  };
  const skipped = (count: number) => {
    if (count <= 0) return;
    out.push(skip);
    oldNo += count;
    newNo += count;
  };
  parts.forEach((part, i) => {
    if (part.kind !== "equal") {
      firstChangedLine ??= newNo;
      for (const line of part.lines) {
        out.push(part.kind === "add" ? `+${num(newNo++)} ${stripEnding(line)}` : `-${num(oldNo++)} ${stripEnding(line)}`);
      }
      return;
    }
    const after = i > 0; // an equal part always follows a change unless it is the first part
    const before = i < parts.length - 1;
    const lines = part.lines;
    if (after && before && lines.length <= contextLines * 2) context(lines);
    else if (after && before) {
      context(lines.slice(0, contextLines));
      skipped(lines.length - 2 * contextLines);
      context(lines.slice(lines.length - contextLines));
    } else if (after) {
      context(lines.slice(0, contextLines));
      skipped(lines.length - contextLines);
    } else if (before) {
      skipped(lines.length - contextLines);
      context(lines.slice(Math.max(0, lines.length - contextLines)));
    } else {
      oldNo += lines.length;
      newNo += lines.length;
    }
  });
  return { diff: out.join("\n"), firstChangedLine };
}

/** A unified patch (`--- path`, `+++ path`, `@@ -a,b +c,d @@` hunks) with `contextLines` of context. */
export const generateUnifiedPatch = (path: string, oldText: string, newText: string, contextLines = 4): string => lineDiff().unifiedPatch(path, oldText, newText, contextLines);

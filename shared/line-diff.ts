/**
 * Line diffs for the whole product, on the `diff` library (jsdiff, as pi uses): the edit tool's
 * details and the protected-path question in the host, the inline diff of tool cards in the chat,
 * the review's hunks. A line keeps its ending, so a missing final
 * newline is a change, as in diff(1).
 */
import { diffArrays, structuredPatch } from "diff";

export type LineRunKind = "equal" | "add" | "remove";
export interface LineRun {
  kind: LineRunKind;
  /** Lines with their line endings. */
  lines: string[];
}

/**
 * How many differences the diff looks for before it shows the middle as removed-then-added: its
 * cost grows with the lines times the differences (jsdiff's Myers is O((N+M)·D)), so the bound is
 * a budget of work divided by the lines, between 64 and 2,000 differences. The default budget keeps
 * any diff within ~0.1 s (2,000 differences up to 10,000 lines; 200 at 100,000); the review, on
 * the shared extension host, passes a tenth of it.
 */
export const DEFAULT_DIFF_WORK = 20_000_000;
const editBound = (lines: number, work: number): number => Math.max(64, Math.min(2000, Math.floor(work / Math.max(1, lines))));

const lineCount = (text: string): number => text.split("\n").length;
const splitLines = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+/g) ?? [];

/** The changes from `a` to `b` as runs of lines; within a change, removals come before additions. */
export const lineRuns = (a: string, b: string, work = DEFAULT_DIFF_WORK): LineRun[] => runsOfLines(splitLines(a), splitLines(b), work);

/** The same on texts already split into lines (with or without their endings: compared as given). */
export function runsOfLines(oldLines: readonly string[], newLines: readonly string[], work = DEFAULT_DIFF_WORK): LineRun[] {
  // The common first and last lines are found in one pass; the library diffs only the middle.
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < oldLines.length - prefix && suffix < newLines.length - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) suffix++;
  const midA = oldLines.slice(prefix, oldLines.length - suffix);
  const midB = newLines.slice(prefix, newLines.length - suffix);
  const runs: LineRun[] = [];
  const push = (kind: LineRunKind, lines: string[]) => {
    if (lines.length === 0) return;
    const last = runs.at(-1);
    if (last?.kind === kind) last.lines.push(...lines);
    else runs.push({ kind, lines });
  };
  push("equal", oldLines.slice(0, prefix));
  const changes = midA.length && midB.length ? diffArrays(midA, midB, { maxEditLength: editBound(midA.length + midB.length, work) }) : undefined;
  if (!changes) {
    push("remove", midA);
    push("add", midB);
  } else {
    let removed: string[] = [];
    let added: string[] = [];
    const flush = () => {
      push("remove", removed);
      push("add", added);
      removed = [];
      added = [];
    };
    for (const change of changes) {
      if (change.removed) removed.push(...change.value);
      else if (change.added) added.push(...change.value);
      else {
        flush();
        push("equal", change.value);
      }
    }
    flush();
  }
  push("equal", oldLines.slice(oldLines.length - suffix));
  return runs;
}

/** A unified patch (`--- path`, `+++ path`, `@@ -a,b +c,d @@` hunks) with `contextLines` of context. */
export function unifiedPatch(path: string, oldText: string, newText: string, contextLines = 4): string {
  const { hunks } = structuredPatch(path, path, oldText, newText, undefined, undefined, { context: contextLines, maxEditLength: editBound(lineCount(oldText) + lineCount(newText), DEFAULT_DIFF_WORK) }) ?? { hunks: undefined };
  const out = [`--- ${path}`, `+++ ${path}`];
  if (!hunks) return `${out.join("\n")}\n${wholeHunk(oldText, newText)}`;
  // diff(1) numbers an empty side by the line before it: `-0,0`.
  const start = (line: number, count: number) => (count === 0 ? line - 1 : line);
  for (const hunk of hunks) {
    out.push(`@@ -${start(hunk.oldStart, hunk.oldLines)},${hunk.oldLines} +${start(hunk.newStart, hunk.newLines)},${hunk.newLines} @@`, ...hunk.lines);
  }
  return `${out.join("\n")}\n`;
}

/** One hunk replacing everything: the patch of two texts too different to diff within the bound. */
function wholeHunk(oldText: string, newText: string): string {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const lines = (prefix: string, text: string[]) => text.flatMap((line) => (line.endsWith("\n") ? [`${prefix}${line.slice(0, -1)}`] : [`${prefix}${line}`, "\\ No newline at end of file"]));
  return [`@@ -${a.length ? 1 : 0},${a.length} +${b.length ? 1 : 0},${b.length} @@`, ...lines("-", a), ...lines("+", b)].join("\n") + "\n";
}

/**
 * The hunks of a change and what Keep and Undo do to one, as plain functions on text (no vscode).
 *
 * Three versions of a file take part: `before` (what the review started from: the file before the
 * agent changed it, or what the user kept since), `agent` (the file as the agent last left it) and
 * `current` (the file now, with whatever the user did since). The hunks under review are those of
 * before → agent; each is found in `current` through the diff agent → current (the user's edits
 * since), so that a hunk is undone in place when the user edited elsewhere, and refused when the
 * user edited its lines.
 */
import { runsOfLines } from "../../shared/line-diff";

/** One changed region: `oldLines` at `oldStart` in before became `newLines` at `newStart` in agent (0-based lines). */
export interface Hunk {
  oldStart: number;
  oldLines: readonly string[];
  newStart: number;
  newLines: readonly string[];
}

/** A text's lines, each with its line terminator (the last may have none): joined they are the text, byte for byte. */
export function splitLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines ? [...lines] : [];
}

/**
 * The review's budget of diff work (see shared/line-diff.ts): a tenth of the default, since it runs
 * on the extension host at each file event; a 1 MB file rewritten line by line took 88 s there
 * unbounded. Past it the changed middle is one replaced region.
 */
const DIFF_WORK = 2_000_000;

/** The changed regions from `oldText` to `newText`, without context lines, in order. */
export function hunksOf(oldText: string, newText: string): Hunk[] {
  if (oldText === newText) return [];
  const hunks: Hunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  let open: { oldStart: number; oldLines: string[]; newStart: number; newLines: string[] } | undefined;
  for (const run of runsOfLines(splitLines(oldText), splitLines(newText), DIFF_WORK)) {
    const count = run.lines.length;
    if (run.kind === "equal") {
      if (open) hunks.push(open);
      open = undefined;
      oldLine += count;
      newLine += count;
      continue;
    }
    open ??= { oldStart: oldLine, oldLines: [], newStart: newLine, newLines: [] };
    if (run.kind === "remove") {
      open.oldLines.push(...run.lines);
      oldLine += count;
    } else {
      open.newLines.push(...run.lines);
      newLine += count;
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

export interface LineCounts {
  added: number;
  removed: number;
}

export function lineCounts(hunks: readonly Hunk[]): LineCounts {
  return hunks.reduce((sum, h) => ({ added: sum.added + h.newLines.length, removed: sum.removed + h.oldLines.length }), { added: 0, removed: 0 });
}

/** Where a hunk's lines are in `current` (0-based line), or that the user changed them since the agent did. */
export type HunkPlace = { line: number; conflict?: undefined } | { conflict: true; line: number };

/**
 * Finds an agent hunk in the current text. The user's edits since (agent → current) move it by the
 * lines they added or removed above it; an edit that touches its lines, or inserts at the same
 * point as a hunk that only removed lines, is a conflict (`line` then says roughly where it was).
 */
export function placeHunk(hunk: Hunk, agentText: string, currentText: string): HunkPlace {
  const start = hunk.newStart;
  const end = start + hunk.newLines.length;
  let shift = 0;
  for (const user of hunksOf(agentText, currentText)) {
    const userStart = user.oldStart;
    const userEnd = userStart + user.oldLines.length;
    const overlaps = userStart < end && start < userEnd;
    const samePoint = start === end && userStart === userEnd && userStart === start;
    if (overlaps || samePoint) return { conflict: true, line: Math.max(0, start + shift) };
    if (userEnd <= start) shift += user.newLines.length - user.oldLines.length;
  }
  const line = start + shift;
  // The diff says these lines are untouched; a check costs little and guards the write.
  const lines = splitLines(currentText).slice(line, line + hunk.newLines.length);
  if (lines.join("") !== hunk.newLines.join("")) return { conflict: true, line };
  return { line };
}

function replaceLines(text: string, start: number, count: number, replacement: readonly string[]): string {
  const lines = splitLines(text);
  lines.splice(start, count, ...replacement);
  return lines.join("");
}

/** Keep: the review's before takes the hunk (it is no longer a difference). */
export function keepHunk(beforeText: string, hunk: Hunk): string {
  return replaceLines(beforeText, hunk.oldStart, hunk.oldLines.length, hunk.newLines);
}

export type HunkUndo = { conflict: true; line: number } | { conflict?: undefined; current: string; agent: string; line: number };

/**
 * Undo: the hunk's lines in the current text go back to what they were, nothing else changes (the
 * user's other edits stay); the agent's version loses the hunk too, so it leaves the review.
 */
export function undoHunk(hunk: Hunk, agentText: string, currentText: string): HunkUndo {
  const place = placeHunk(hunk, agentText, currentText);
  if (place.conflict) return place;
  return {
    current: replaceLines(currentText, place.line, hunk.newLines.length, hunk.oldLines),
    agent: replaceLines(agentText, hunk.newStart, hunk.newLines.length, hunk.oldLines),
    line: place.line,
  };
}

const sameLines = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((line, i) => line === b[i]);

/**
 * The agent's text without the hunks the user has put back exactly as they were (the diff
 * editor's revert arrow, or by hand): such a hunk is undone, not a conflict.
 */
export function withoutReverted(beforeText: string, agentText: string, currentText: string): string {
  const user = hunksOf(agentText, currentText);
  const reverted = hunksOf(beforeText, agentText).filter((h) => user.some((u) => u.oldStart === h.newStart && sameLines(u.oldLines, h.newLines) && sameLines(u.newLines, h.oldLines)));
  const lines = splitLines(agentText);
  for (const h of reverted.reverse()) lines.splice(h.newStart, h.newLines.length, ...h.oldLines);
  return lines.join("");
}

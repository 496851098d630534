/**
 * One file under review, as plain data, and what its Keep and Undo do (no vscode). Contents are
 * bytes; hunks exist only for text (UTF-8 that reads back to the same bytes).
 */
import { hunksOf, keepHunk, lineCounts, undoHunk, withoutReverted, type Hunk, type LineCounts } from "./hunks";

/** A file's content: its bytes, or null when there is no file. */
export type Content = Buffer | null;

export interface FileChange {
  readonly path: string;
  /** What the review started from (the file before the agent changed it, or what was kept since); undefined: not recorded (changed by a command). */
  before: Content | undefined;
  /** The file as the agent last left it. */
  agent: Content;
  /** The before comes from file events, not from a checkpoint record (a record, when one comes, wins). */
  guessed?: boolean;
  /**
   * The sessions whose agents changed it (the editor's session ids, AgentSession.id): a chat shows
   * and keeps or undoes only its own session's changes. Two when two sessions changed one file.
   */
  readonly owners: Set<string>;
}

export type ChangeKind = "created" | "deleted" | "modified";

export function changeKind(change: FileChange): ChangeKind {
  if (change.agent === null) return "deleted";
  return change.before === null ? "created" : "modified";
}

/** The content as text, or undefined for binary content (hunks are then not offered). Null (no file) reads as "". */
export function textOf(content: Content): string | undefined {
  if (content === null) return "";
  const text = content.toString("utf8");
  return text.includes("\0") || !Buffer.from(text, "utf8").equals(content) ? undefined : text;
}

export const sameContent = (a: Content | undefined, b: Content | undefined) => (a === null || b === null || a === undefined || b === undefined ? a === b : a.equals(b));

/** The hunks under review (before → agent); empty when the before is unknown or either side is binary. */
export function changeHunks(change: FileChange): Hunk[] {
  if (change.before === undefined) return [];
  const before = textOf(change.before);
  const agent = textOf(change.agent);
  return before === undefined || agent === undefined ? [] : hunksOf(before, agent);
}

/** +/- lines; undefined when they cannot be counted (before unknown, binary). */
export function changeCounts(change: FileChange): LineCounts | undefined {
  if (change.before === undefined || textOf(change.before) === undefined || textOf(change.agent) === undefined) return undefined;
  return lineCounts(changeHunks(change));
}

/**
 * Whether the file still has something to review: the agent's version differs from the before
 * and the file is not back to the before (a rewind, or the user undid it by hand).
 */
export function stillChanged(change: FileChange, current: Content): boolean {
  if (change.before === undefined) return true; // nothing to compare with: it stays until kept
  return !sameContent(change.before, change.agent) && !sameContent(change.before, current);
}

/** The agent's version without the hunks the user reverted exactly since, or undefined when there are none. */
export function revertedByUser(change: FileChange, current: Content): Content | undefined {
  const before = change.before === undefined ? undefined : textOf(change.before);
  const agent = textOf(change.agent);
  const now = textOf(current);
  if (before === undefined || agent === undefined || now === undefined || current === null) return undefined;
  const next = withoutReverted(before, agent, now);
  return next === agent ? undefined : Buffer.from(next, "utf8");
}

/** Keep of one hunk: the new before. */
export function keptHunk(change: FileChange, hunk: Hunk): Content {
  const before = textOf(change.before ?? null) ?? "";
  return Buffer.from(keepHunk(before, hunk), "utf8");
}

export type HunkUndoResult = { conflict: true; line: number } | { conflict?: undefined; current: string; agent: Content; line: number };

/** Undo of one hunk against the current text; for a file the agent deleted there is no text to change. */
export function undoneHunk(change: FileChange, hunk: Hunk, currentText: string): HunkUndoResult {
  const agent = textOf(change.agent) ?? "";
  const result = undoHunk(hunk, agent, currentText);
  if (result.conflict) return result;
  return { current: result.current, agent: Buffer.from(result.agent, "utf8"), line: result.line };
}

/** What Undo of a whole file does: write the before back, delete a file the agent created, or nothing (not recorded). */
export type FileUndo =
  | { action: "write"; content: Buffer; conflict: boolean }
  | { action: "delete"; conflict: boolean }
  | { action: "unavailable"; reason: string };

/** `conflict`: Undo must ask first (conflictReason says why). */
export function fileUndo(change: FileChange, current: Content): FileUndo {
  if (change.before === undefined) return { action: "unavailable", reason: "its content before the change was not recorded (changed by a command)" };
  const conflict = conflictReason(change, current) !== undefined;
  return change.before === null ? { action: "delete", conflict } : { action: "write", content: change.before, conflict };
}

/**
 * Why Undo of a file must ask first, or undefined when it need not: the file changed since the
 * agent's last write (the user's edits would be lost too), or it is taken for created only from
 * its file events (deleting it wants a yes). fileUndo's `conflict`; said in the log.
 */
export function conflictReason(change: FileChange, current: Content): string | undefined {
  const size = (c: Content | undefined) => (c === undefined ? "unknown" : c === null ? "no file" : `${c.length} bytes`);
  if (!sameContent(change.agent, current)) return `the file now (${size(current)}) is not the agent's last version (${size(change.agent)})`;
  if (change.before === null && change.guessed === true) return "created, seen only by its file events (no checkpoint record of it)";
  return undefined;
}

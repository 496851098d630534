/**
 * Text helpers of the read and edit tools that need no editor: a short content hash to guard
 * edits, and the window of lines a read returns. Unit-tested.
 */
import { createHash } from "node:crypto";

/** "sha256:" and the first 16 hex digits of the SHA-256 of the text (UTF-8): enough to notice a change. */
export function contentHash(text: string): string {
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16)}`;
}

/** Accepts a hash with or without the "sha256:" prefix, in any case, shortened to 16 digits or not. */
export function sameHash(expected: string, actual: string): boolean {
  const digits = (hash: string) => hash.trim().toLowerCase().replace(/^sha256:/, "");
  const want = digits(expected);
  return want.length >= 8 && digits(actual).startsWith(want.slice(0, 16));
}

export interface ReadWindow {
  text: string;
  /** 1-based first and last line returned (0 and 0 for an empty document). */
  startLine: number;
  endLine: number;
  totalLines: number;
  /** Where to continue (1-based), when lines were left out at the end. */
  nextOffset?: number;
}

export interface ReadLimits {
  maxLines: number;
  maxChars: number;
}

export const defaultReadLimits: ReadLimits = { maxLines: 2000, maxChars: 50_000 };

/**
 * Lines `offset` (1-based, default 1) to `offset + limit - 1` of `text`, cut further so that no
 * more than `maxChars` characters come back (whole lines only, at least one line).
 */
export function readWindow(text: string, offset = 1, limit?: number, limits: ReadLimits = defaultReadLimits): ReadWindow {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const totalLines = text === "" ? 0 : lines.length;
  if (totalLines === 0) return { text: "", startLine: 0, endLine: 0, totalLines };
  if (!Number.isInteger(offset) || offset < 1) throw new Error(`offset must be a line number from 1 (got ${offset}).`);
  if (offset > totalLines) throw new Error(`offset ${offset} is beyond the end of the document (${totalLines} lines).`);
  const wanted = Math.min(limit ?? limits.maxLines, limits.maxLines);
  const picked: string[] = [];
  let chars = 0;
  for (let i = offset - 1; i < totalLines && picked.length < wanted; i++) {
    const line = lines[i] ?? "";
    if (picked.length > 0 && chars + line.length + 1 > limits.maxChars) break;
    picked.push(line.length > limits.maxChars ? `${line.slice(0, limits.maxChars)}… [line cut at ${limits.maxChars} characters]` : line);
    chars += line.length + 1;
  }
  const endLine = offset + picked.length - 1;
  const window: ReadWindow = { text: picked.join("\n"), startLine: offset, endLine, totalLines };
  if (endLine < totalLines) window.nextOffset = endLine + 1;
  return window;
}

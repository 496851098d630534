/**
 * Output limits shared by the tools (the same numbers as pi, so prompts and sessions carry over).
 * Two independent limits, whichever is hit first: a line count and a UTF-8 byte count.
 * Head truncation keeps whole lines from the start (file reads); tail truncation keeps whole
 * lines from the end (command output) and may cut the one line it keeps when that line alone is
 * too big.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** Longest grep line shown, in characters. */
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** Tail truncation only: the single line kept was cut at its start. */
  lastLinePartial: boolean;
  /** Head truncation only: even the first line is over the byte limit, so nothing is shown. */
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

const byteLength = (text: string): number => Buffer.byteLength(text, "utf-8");

/** Lines as a reader counts them: a final newline ends the last line rather than starting one. */
function countableLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function untruncated(content: string, lines: number, bytes: number, maxLines: number, maxBytes: number): TruncationResult {
  return {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  };
}

/** Keeps whole lines from the start. Never returns a partial line. */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = byteLength(content);
  const lines = countableLines(content);
  if (lines.length <= maxLines && totalBytes <= maxBytes) return untruncated(content, lines.length, totalBytes, maxLines, maxBytes);

  const base = { truncated: true, totalLines: lines.length, totalBytes, lastLinePartial: false, maxLines, maxBytes };
  if (byteLength(lines[0]) > maxBytes) {
    return { ...base, content: "", truncatedBy: "bytes", outputLines: 0, outputBytes: 0, firstLineExceedsLimit: true };
  }
  let used = 0;
  let count = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  while (count < lines.length && count < maxLines) {
    const cost = byteLength(lines[count]) + (count > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    used += cost;
    count++;
  }
  const kept = lines.slice(0, count).join("\n");
  return { ...base, content: kept, truncatedBy, outputLines: count, outputBytes: byteLength(kept), firstLineExceedsLimit: false };
}

/** Keeps whole lines from the end; only when the last line alone is too big is it cut (at its start). */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = byteLength(content);
  const lines = countableLines(content);
  if (lines.length <= maxLines && totalBytes <= maxBytes) return untruncated(content, lines.length, totalBytes, maxLines, maxBytes);

  const kept: string[] = [];
  let used = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  let lastLinePartial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const cost = byteLength(lines[i]) + (kept.length > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      truncatedBy = "bytes";
      if (kept.length === 0) {
        kept.push(lastBytes(lines[i], maxBytes));
        used = byteLength(kept[0]);
        lastLinePartial = true;
      }
      break;
    }
    kept.unshift(lines[i]);
    used += cost;
  }
  // As pi: a full quota of lines within the byte limit counts as cut by lines (even a partial one).
  if (kept.length >= maxLines && used <= maxBytes) truncatedBy = "lines";
  const text = kept.join("\n");
  return {
    content: text,
    truncated: true,
    truncatedBy,
    totalLines: lines.length,
    totalBytes,
    outputLines: kept.length,
    outputBytes: byteLength(text),
    lastLinePartial,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  };
}

/** The end of a string, at most maxBytes of UTF-8, starting on a character boundary. */
export function lastBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf-8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString("utf-8");
}

/** Shortens one line to maxChars characters, marking the cut ("... [truncated]"). */
export function truncateLine(line: string, maxChars = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}

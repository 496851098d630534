/**
 * The one reader of Pi's session files (host and editor): lines in, header and entries out.
 * Tolerant: a line that is not a JSON object (a last line cut by a crash, garbage) is skipped and
 * counted, never thrown; a file of an older version (1, 2) is migrated in memory.
 * Platform-free: the lines come from shared/node/session-file-reader.ts or anywhere else.
 */
import { isRecord, parseForeignFrame } from "../foreign-json";
import type { SessionEntry, SessionHeader } from "./schema";
import { SESSION_VERSION } from "./version";

export interface ParsedSession {
  /** The first record of type `session`, its version the current one; undefined: not a session file. */
  header: SessionHeader | undefined;
  /** Every other record, in file order, migrated to the current version. */
  entries: SessionEntry[];
  /** Lines that were not readable JSON objects. */
  skippedLines: number;
  /** The file was an older version and its entries were migrated. */
  migrated: boolean;
  /** Keys dropped because they could reach a prototype (`__proto__`, `constructor`, `prototype`). */
  droppedKeys: number;
}

export interface ParseOptions {
  /**
   * A cheap test of a line's text: once the header is read, lines it refuses are not parsed at all
   * (neither entries nor skipped), for readers that want a few kinds out of a large file.
   */
  wanted?(line: string): boolean;
}

type JsonRecord = Record<string, unknown>;

/**
 * One JSON object, or undefined for anything else. Through the foreign-JSON door's frame path (a
 * session file may be another program's, and large: lines that cannot hold a forbidden key are
 * not walked); a dropped key is counted in `droppedKeys`.
 */
function parseRecord(line: string, counts?: { droppedKeys: number }): JsonRecord | undefined {
  const parsed = parseForeignFrame(line);
  if (!parsed.ok) return undefined;
  if (counts) counts.droppedKeys += parsed.notices.length;
  return isRecord(parsed.value) ? parsed.value : undefined;
}

/** The header, when `line` is one. */
export function parseHeader(line: string): SessionHeader | undefined {
  const record = parseRecord(line);
  return record?.type === "session" ? (record as unknown as SessionHeader) : undefined;
}

export function parseSessionLines(lines: Iterable<string>, options: ParseOptions = {}): ParsedSession {
  const { wanted } = options;
  let skippedLines = 0;
  let header: SessionHeader | undefined;
  const records: JsonRecord[] = [];
  const counts = { droppedKeys: 0 };
  for (const line of lines) {
    if (!line.trim()) continue;
    if (header && wanted && !wanted(line)) continue;
    const record = parseRecord(line, counts);
    if (!record) skippedLines++;
    else if (!header && record.type === "session") header = record as unknown as SessionHeader;
    else records.push(record);
  }
  const version = header?.version ?? 1;
  const migrated = header !== undefined && version < SESSION_VERSION;
  const entries = migrated ? migrateEntries(records, version) : (records as unknown as SessionEntry[]);
  return { header: header && { ...header, version: SESSION_VERSION }, entries, skippedLines, migrated, droppedKeys: counts.droppedKeys };
}

/** v1: a linear list without ids → a chain; v2 → v3: the `hookMessage` role became `custom`. */
function migrateEntries(records: readonly JsonRecord[], version: number): SessionEntry[] {
  let previous: string | null = null;
  let counter = 0;
  return records.map((record) => {
    const entry = { ...record };
    if (version < 2) {
      entry.id = typeof entry.id === "string" ? entry.id : `m${(counter++).toString(16).padStart(7, "0")}`;
      entry.parentId = previous;
      entry.timestamp ??= new Date(0).toISOString();
      previous = entry.id as string;
    }
    const message = entry.message as { role?: string } | undefined;
    if (message?.role === "hookMessage") entry.message = { ...message, role: "custom" };
    return entry as unknown as SessionEntry;
  });
}

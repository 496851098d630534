import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SESSION_VERSION, type SessionEntry, type SessionHeader } from "./entries";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../../shared/node/private-files";

/** Where pi keeps the sessions of a working directory: `<agentDir>/sessions/--<cwd>--/`. */
export function defaultSessionDir(agentDir: string, cwd: string): string {
  const safe = `--${resolve(cwd).replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
  return join(agentDir, "sessions", safe);
}

export function sessionFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

export interface LoadedSession {
  header: SessionHeader;
  entries: SessionEntry[];
  /** Lines that were not readable JSON (e.g. a last line cut by a crash): skipped, never fatal. */
  skippedLines: number;
  /** The file was an older version and its entries were migrated in memory. */
  migrated: boolean;
}

/** Reads a session file of any version (1–3); unreadable lines are skipped and counted. */
export function loadSessionFile(file: string): LoadedSession {
  let skippedLines = 0;
  const records: Record<string, unknown>[] = [];
  for (const line of readLines(file)) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) records.push(value as Record<string, unknown>);
      else skippedLines++;
    } catch {
      skippedLines++;
    }
  }
  const headerIndex = records.findIndex((r) => r.type === "session");
  if (headerIndex === -1) throw new Error(`Not a session file (no session header): ${file}`);
  const header = records[headerIndex] as unknown as SessionHeader;
  const rest = records.filter((_, i) => i !== headerIndex);
  const migrated = (header.version ?? 1) < SESSION_VERSION;
  const entries = migrated ? migrate(rest, header.version ?? 1) : (rest as unknown as SessionEntry[]);
  return { header: { ...header, version: SESSION_VERSION }, entries, skippedLines, migrated };
}

const CHUNK_BYTES = 1 << 20;

/**
 * A file's lines (split on LF), read a megabyte at a time into one reused buffer (a line longer
 * than it grows it) and decoded line by line. Never one string of the whole file: the strings
 * JSON.parse returns point into the text they came from, which so stays alive with them (a 10 MB
 * session took ~20 MB more memory that way); decoding bigger batches of lines loaded faster but
 * made the next get_messages slower by more (measured).
 */
function* readLines(file: string): Generator<string> {
  const fd = openSync(file, "r");
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2);
      const read = readSync(fd, buffer, filled, buffer.length - filled, null);
      const bytes = buffer.subarray(0, filled + read);
      let start = 0;
      for (let lf = bytes.indexOf(10, start); lf !== -1; lf = bytes.indexOf(10, start)) {
        yield bytes.toString("utf8", start, lf);
        start = lf + 1;
      }
      if (read === 0) {
        if (start < bytes.length) yield bytes.toString("utf8", start);
        return;
      }
      filled = bytes.copy(buffer, 0, start);
    }
  } finally {
    closeSync(fd);
  }
}

/** v1: a linear list without ids → a chain; v2 → v3: the `hookMessage` role became `custom`. */
function migrate(records: Record<string, unknown>[], version: number): SessionEntry[] {
  let previous: string | null = null;
  let counter = 0;
  return records.map((record) => {
    const entry = { ...record } as Record<string, unknown>;
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

/**
 * Appends records to a session file, one line each, written synchronously so that a crash loses
 * at most the line being written. The file is created (with its header) on the first write.
 */
export class SessionWriter {
  private created: boolean;

  constructor(
    readonly file: string,
    private readonly header: SessionHeader,
  ) {
    this.created = existsSync(file);
  }

  get exists(): boolean {
    return this.created;
  }

  append(entries: readonly SessionEntry[]): void {
    if (entries.length === 0 && this.created) return;
    const text = entries.map((e) => `${JSON.stringify(e)}\n`).join("");
    if (!this.created) {
      mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
      writeFileSync(this.file, `${JSON.stringify(this.header)}\n${text}`, { flag: "wx", mode: PRIVATE_FILE_MODE });
      this.created = true;
      return;
    }
    appendFileSync(this.file, text, { mode: PRIVATE_FILE_MODE });
  }

  /** A crash can leave a last line without LF: end it, so the next entry starts on its own line. */
  terminateLastLine(): void {
    if (!this.created) return;
    const fd = openSync(this.file, "r");
    try {
      const size = fstatSync(fd).size;
      if (size === 0) return;
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) appendFileSync(this.file, "\n");
    } finally {
      closeSync(fd);
    }
  }

  /** Rewrites the whole file (after a migration). */
  rewrite(entries: readonly SessionEntry[]): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(this.file, [this.header, ...entries].map((e) => `${JSON.stringify(e)}\n`).join(""), { mode: PRIVATE_FILE_MODE });
    this.created = true;
  }
}

import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readSessionFile } from "../../../shared/node/session-file-reader";
import type { SessionEntry, SessionHeader } from "../../../shared/session-format/schema";
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

/** Reads a session file of any version (1–3) through the shared reader; a file without a header is refused. */
export function loadSessionFile(file: string): LoadedSession {
  const { header, ...rest } = readSessionFile(file);
  if (!header) throw new Error(`Not a session file (no session header): ${file}`);
  return { header, ...rest };
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

/**
 * Pi's session files read from disk (parsing: shared/session-format). Reading a file may throw
 * (missing, unreadable); its lines never make it throw.
 */
import { closeSync, readSync } from "node:fs";
import { openRegularFile } from "./regular-file";
import { parseHeader, parseSessionLines, type ParsedSession, type ParseOptions } from "../session-format/parse";
import type { SessionHeader } from "../session-format/schema";

const CHUNK_BYTES = 1 << 20;

/**
 * A file's lines (split on LF), read a megabyte at a time into one reused buffer (a line longer
 * than it grows it) and decoded line by line. Never one string of the whole file: the strings
 * JSON.parse returns point into the text they came from, which so stays alive with them (a 10 MB
 * session took ~20 MB more memory that way); decoding bigger batches of lines loaded faster but
 * made the next get_messages slower by more (measured).
 */
function* readFileLines(file: string): Generator<string> {
  // Only a regular file: a session folder is written by agents (pi/omp sandboxed whole).
  const fd = openRegularFile(file);
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

/** A session file, header and entries; throws only when the file cannot be read. */
export function readSessionFile(file: string, options?: ParseOptions): ParsedSession {
  return parseSessionLines(readFileLines(file), options);
}

/** The header of a session file (its first line); undefined when it has none or cannot be read. */
export function readSessionHeader(file: string): SessionHeader | undefined {
  try {
    for (const line of readFileLines(file)) return parseHeader(line);
  } catch {
    // missing or unreadable: no header
  }
  return undefined;
}

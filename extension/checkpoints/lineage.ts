/**
 * What a rewind needs from the session file: the ids of the session and of the sessions it was
 * forked from (their manifests hold the records of the turns the fork copied), and when a user
 * message was sent.
 */
import { readSessionFile, readSessionHeader } from "../../shared/node/session-file-reader";
import type { SessionEntry } from "../../shared/session-format/schema";

/** Session ids of the file and of its ancestors (parentSession), nearest first. */
export function sessionLineage(sessionFile: string | undefined, sessionId: string): string[] {
  const ids = [sessionId];
  const seen = new Set<string>();
  for (let file = sessionFile; file && !seen.has(file); ) {
    seen.add(file);
    const header = readSessionHeader(file);
    if (!header) break;
    if (typeof header.id === "string" && !ids.includes(header.id)) ids.push(header.id);
    file = typeof header.parentSession === "string" ? header.parentSession : undefined;
  }
  return ids;
}

/** When each entry of the session file was appended (epoch ms), by entry id. */
export function entryTimes(sessionFile: string | undefined): Map<string, number> {
  const times = new Map<string, number>();
  let entries: readonly SessionEntry[] = [];
  try {
    if (sessionFile) entries = readSessionFile(sessionFile).entries;
  } catch {
    // missing or unreadable: no times
  }
  for (const entry of entries) {
    const time = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : NaN;
    if (typeof entry.id === "string" && Number.isFinite(time)) times.set(entry.id, time);
  }
  return times;
}

/**
 * What a rewind needs from the session file: the ids of the session and of the sessions it was
 * forked from (their manifests hold the records of the turns the fork copied), and when a user
 * message was sent.
 */
import * as fs from "node:fs";

interface Line {
  type?: unknown;
  id?: unknown;
  parentSession?: unknown;
  timestamp?: unknown;
}

function lines(file: string, onlyFirst: boolean): Line[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const parsed: Line[] = [];
  const end = text.indexOf("\n");
  for (const line of onlyFirst ? [end === -1 ? text : text.slice(0, end)] : text.split("\n")) {
    try {
      if (line.trim()) parsed.push(JSON.parse(line) as Line);
    } catch {
      // a torn line
    }
  }
  return parsed;
}

/** Session ids of the file and of its ancestors (parentSession), nearest first. */
export function sessionLineage(sessionFile: string | undefined, sessionId: string): string[] {
  const ids = [sessionId];
  const seen = new Set<string>();
  for (let file = sessionFile; file && !seen.has(file); ) {
    seen.add(file);
    const header = lines(file, true)[0];
    if (header?.type !== "session") break;
    if (typeof header.id === "string" && !ids.includes(header.id)) ids.push(header.id);
    file = typeof header.parentSession === "string" ? header.parentSession : undefined;
  }
  return ids;
}

/** When each entry of the session file was appended (epoch ms), by entry id. */
export function entryTimes(sessionFile: string | undefined): Map<string, number> {
  const times = new Map<string, number>();
  for (const line of sessionFile ? lines(sessionFile, false) : []) {
    const time = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : NaN;
    if (line.type !== "session" && typeof line.id === "string" && Number.isFinite(time)) times.set(line.id, time);
  }
  return times;
}

/**
 * Summaries of Pi session files (shared by the extension and the host).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { readSessionFile } from "./session-file-reader";
import type { ParsedSession } from "../session-format/parse";

/**
 * One session file of a folder, as the editor's Resume Session and the host's ACP session/list
 * list it: its header, its name or first message, its size in messages.
 */
export interface SessionSummary {
  file: string;
  /** The header's session id and working directory. */
  id: string;
  cwd: string;
  /** The header's timestamp (start of the session). */
  started: Date;
  modified: Date;
  name?: string;
  firstMessage?: string;
  messageCount: number;
}

/** Reads the summary of a Pi session file (shared/session-format's reader); undefined if it is not one. */
export function readSessionSummary(file: string): SessionSummary | undefined {
  let parsed: ParsedSession;
  let stat: fs.Stats;
  try {
    // Parse only what the summary needs: the header, names, and messages.
    parsed = readSessionFile(file, { wanted: (line) => line.includes('"session_info"') || line.includes('"message"') });
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  const { header, entries } = parsed;
  if (!header) return undefined;
  let name: string | undefined;
  let firstMessage: string | undefined;
  let messageCount = 0;
  for (const entry of entries) {
    if (entry.type === "session_info" && typeof entry.name === "string") {
      name = entry.name || undefined;
    } else if (entry.type === "message" && entry.message) {
      messageCount++;
      if (!firstMessage && entry.message.role === "user") firstMessage = textOf(entry.message.content);
    }
  }
  const started = header.timestamp ? new Date(header.timestamp) : stat.mtime;
  return { file, id: header.id, cwd: header.cwd, started, modified: stat.mtime, messageCount, ...(name ? { name } : {}), ...(firstMessage ? { firstMessage } : {}) };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "")).join(" ").trim();
}

/** The session files of a folder, newest first. */
export function listSessions(dir: string): SessionSummary[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  } catch {
    return [];
  }
  return names
    .map((f) => readSessionSummary(path.join(dir, f)))
    .filter((s): s is SessionSummary => s !== undefined)
    .sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

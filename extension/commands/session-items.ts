/**
 * Resume Session's and Fork from Message's rows for a Pi agent, their plain part. A session's name
 * and messages and its file's name come from the session file, which pi or omp sandboxed as a
 * whole can write (and a crafted one can be copied there): foreign text, on one line, every
 * character visible, no icon of its own, as the ACP agent's rows (acp-session-items.ts).
 */
import * as path from "node:path";
import { withoutContext } from "../chat/context/context-format";
import { quickPickLine } from "../ui/plain-text";
import type { SessionSummary } from "./session-list";

export interface SessionRow {
  label: string;
  description: string;
  detail: string;
  session: SessionSummary;
}

export function sessionRow(session: SessionSummary, current: string | undefined): SessionRow {
  const title = session.name ?? session.firstMessage;
  return {
    label: (title === undefined ? "" : quickPickLine(title)) || "(no messages)",
    description: `${session.modified.toLocaleString()}${session.file === current ? " (current)" : ""}`,
    detail: `${session.messageCount} messages · ${quickPickLine(path.basename(session.file))}`,
    session,
  };
}

/** The user messages to fork from, newest first. */
export function forkRows(messages: readonly { entryId: string; text: string }[]): { label: string; description: string; entryId: string }[] {
  return messages.map((m, i) => ({ label: quickPickLine(withoutContext(m.text)), description: `#${i + 1}`, entryId: m.entryId })).reverse();
}

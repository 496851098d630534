/**
 * Resume Session with an ACP agent, its plain part: what to say when the agent lacks session/load
 * or session/list, and its sessions as quick-pick rows. Everything the agent gives (its name,
 * titles, ids) is foreign text: one line, every character visible, no link or icon of its own.
 */
import { notificationText, quickPickText } from "../ui/plain-text";

export interface AcpSessionRow {
  label: string;
  description: string;
  detail: string;
  sessionId: string;
}

const oneLine = (text: string, max = 80) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The sentence for an agent that cannot offer Resume Session, or undefined when it can. */
export function acpResumeLack(agentName: string, canLoad: boolean, canList: boolean): string | undefined {
  const name = notificationText(agentName);
  if (!canLoad) return `Pi: ${name} cannot reopen its sessions over ACP (it declares no loadSession).`;
  if (!canList) return `Pi: ${name} does not list its sessions over ACP (no session/list): there is nothing to pick from.`;
  return undefined;
}

export function acpSessionRows(listed: readonly { sessionId: string; title?: string; updatedAt?: string }[], currentId: string | undefined): AcpSessionRow[] {
  return listed.map((s) => ({
    label: quickPickText(oneLine(s.title ?? "")) || "(untitled)",
    description: `${s.updatedAt && !Number.isNaN(Date.parse(s.updatedAt)) ? new Date(s.updatedAt).toLocaleString() : ""}${s.sessionId === currentId ? " (current)" : ""}`,
    detail: quickPickText(oneLine(s.sessionId)),
    sessionId: s.sessionId,
  }));
}

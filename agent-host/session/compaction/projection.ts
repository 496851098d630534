import type { AgentMessage, SystemMessage } from "../../../shared/protocol";
import type { SessionEntry } from "../../../shared/session-format/schema";
import { buildSessionContext } from "../persistence/session-context";

/** One entry of the model's view of a branch and the messages it contributes (none for metadata or an omitted target). */
export interface ProjectedEntry {
  entry: SessionEntry;
  messages: AgentMessage[];
}

export interface Projection {
  /** The entries the context is built from, in order: the latest compaction first (if any), then its kept range, then what followed. */
  entries: ProjectedEntry[];
  /** All messages, in order (the concatenation of `entries[].messages`). */
  messages: AgentMessage[];
}

/**
 * The branch as compaction sees it: the same selection buildSessionContext makes (latest compaction,
 * its kept range without system messages, everything after), with each entry's messages after
 * context edits. Entries that contribute nothing stay in the list so that cut points can be
 * moved over them.
 */
export function projectBranch(path: readonly SessionEntry[]): Projection {
  const context = buildSessionContext(path);
  const byEntry = new Map<string, AgentMessage[]>();
  context.messages.forEach((message, i) => {
    const id = context.sourceIds[i];
    const list = byEntry.get(id);
    if (list) list.push(message);
    else byEntry.set(id, [message]);
  });
  const entries = selectEntries(path).map((entry) => ({ entry, messages: byEntry.get(entry.id) ?? [] }));
  return { entries, messages: context.messages };
}

function selectEntries(path: readonly SessionEntry[]): SessionEntry[] {
  let at = -1;
  for (let i = path.length - 1; i >= 0 && at === -1; i--) if (path[i].type === "compaction") at = i;
  if (at === -1) return [...path];
  const compaction = path[at] as SessionEntry & { type: "compaction" };
  const keptFrom = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
  const kept = keptFrom === -1 || keptFrom > at ? [] : path.slice(keptFrom, at).filter((e) => !(e.type === "message" && e.message.role === "system"));
  return [compaction, ...kept, ...path.slice(at + 1)];
}

/** Whether an entry produces context by itself (before any context edit omits it). */
export function producesContext(entry: SessionEntry): boolean {
  return entry.type === "message" || entry.type === "compaction" || entry.type === "branch_summary" || entry.type === "custom_message";
}

/**
 * The system prompt and tools in force after replaying every system message in order: content is
 * appended, sections are set or (null) removed by name, tools are added or removed by name.
 * Undefined when there is no system message at all. This is what a compaction entry checkpoints.
 */
export function currentSystemMessage(messages: readonly AgentMessage[]): SystemMessage | undefined {
  const texts: string[] = [];
  const sections = new Map<string, string>();
  const tools = new Map<string, Record<string, unknown>>();
  let timestamp: number | undefined;
  for (const message of messages) {
    if (message.role !== "system") continue;
    timestamp ??= message.timestamp;
    const text = typeof message.content === "string" ? message.content : message.content.map((b) => b.text).join("\n");
    if (text) texts.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
    for (const removed of message.toolsRemoved ?? []) {
      const name = typeof removed === "string" ? removed : (removed as { name?: unknown } | null)?.name;
      if (typeof name === "string") tools.delete(name);
    }
    for (const tool of message.toolsAdded ?? []) if (typeof tool.name === "string") tools.set(tool.name, tool);
  }
  if (timestamp === undefined) return undefined;
  return {
    role: "system",
    content: texts.join("\n\n"),
    ...(sections.size ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.size ? { toolsAdded: [...tools.values()] } : {}),
    timestamp,
  };
}

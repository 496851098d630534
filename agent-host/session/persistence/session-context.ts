import type { AgentMessage } from "../../../shared/protocol";
import type { ThinkingLevel } from "../../ai/types";
import type { CompactionEntry, SessionEntry } from "../../../shared/session-format/schema";

export interface SessionContext {
  /** What the model sees, in order. */
  messages: AgentMessage[];
  /** The entry each message came from (same order as messages). */
  sourceIds: string[];
  model?: { provider: string; modelId: string };
  thinkingLevel?: ThinkingLevel;
}

const ts = (iso: string) => Date.parse(iso) || 0;

/**
 * The model's view of a branch (root → leaf), as pi builds it: the latest compaction replaces
 * what came before its first kept entry; the latest context_edit per target omits or replaces it;
 * model and thinking level come from the last change entries on the path.
 */
export function buildSessionContext(path: readonly SessionEntry[]): SessionContext {
  let model: SessionContext["model"];
  let thinkingLevel: ThinkingLevel | undefined;
  for (const entry of path) {
    if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "message" && entry.message.role === "assistant") model ??= { provider: entry.message.provider, modelId: entry.message.model };
  }

  let selected: readonly SessionEntry[] = path;
  let compaction: CompactionEntry | undefined;
  const at = findLastIndex(path, (e) => e.type === "compaction");
  if (at !== -1) {
    compaction = path[at] as CompactionEntry;
    const keptFrom = path.findIndex((e) => e.id === compaction!.firstKeptEntryId);
    const kept = keptFrom === -1 || keptFrom > at ? [] : path.slice(keptFrom, at).filter((e) => !(e.type === "message" && e.message.role === "system"));
    selected = [compaction, ...kept, ...path.slice(at + 1)];
  }

  const edits = new Map<string, SessionEntry & { type: "context_edit" }>();
  for (const entry of selected) if (entry.type === "context_edit") edits.set(entry.targetId, entry);

  const messages: AgentMessage[] = [];
  const sourceIds: string[] = [];
  const push = (message: AgentMessage, id: string) => {
    messages.push(message);
    sourceIds.push(id);
  };
  for (const entry of selected) {
    const edit = edits.get(entry.id);
    if (edit && edit.replacement === null) continue;
    switch (entry.type) {
      case "message":
        push(edit && edit.replacement !== null ? replaceContent(entry.message, edit.replacement) : entry.message, entry.id);
        break;
      case "compaction":
        if (entry.systemMessage) push(entry.systemMessage, entry.id);
        push({ role: "compactionSummary", summary: entry.summary, tokensBefore: entry.tokensBefore, timestamp: ts(entry.timestamp) }, entry.id);
        break;
      case "branch_summary":
        push({ role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: ts(entry.timestamp) }, entry.id);
        break;
      case "custom_message": {
        const content = edit && edit.replacement !== null ? edit.replacement : entry.content;
        push({ role: "custom", customType: entry.customType, content, display: entry.display, details: entry.details, timestamp: ts(entry.timestamp) }, entry.id);
        break;
      }
    }
  }
  return { messages, sourceIds, model, thinkingLevel };
}

function replaceContent(message: AgentMessage, replacement: NonNullable<(SessionEntry & { type: "context_edit" })["replacement"]>): AgentMessage {
  const blocks = typeof replacement === "string" ? [{ type: "text" as const, text: replacement }] : replacement;
  switch (message.role) {
    case "user":
      return { ...message, content: replacement };
    case "assistant":
      return { ...message, content: blocks.filter((b) => b.type === "text") };
    case "toolResult":
      return { ...message, content: blocks };
    case "custom":
      return { ...message, content: replacement };
    default:
      return message;
  }
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i;
  return -1;
}

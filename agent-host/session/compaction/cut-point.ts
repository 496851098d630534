import type { AgentMessage } from "../../../shared/protocol";
import type { SessionEntry } from "../../../shared/session-format/schema";
import { carryFileOps, collectFileOps, emptyFileOps, type FileOps } from "./file-ops";
import { producesContext, projectBranch, type ProjectedEntry } from "./projection";
import { estimateProjectedTokens, estimateTokens } from "./tokens";

/** pi's `compaction` settings (settings.json), with pi's defaults. */
export interface CompactionSettings {
  enabled: boolean;
  /** Room left for the reply: auto-compaction starts above contextWindow − reserveTokens; also bounds the summary's length. */
  reserveTokens: number;
  /** At least this much of the recent conversation stays verbatim. */
  keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

export interface CutPoint {
  /** Index (in the projected entries) of the first entry kept verbatim. */
  firstKeptIndex: number;
  /** When the cut falls inside a turn: where that turn starts (its user-side message), else -1. */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/** Where a kept range may begin: not at a tool result (it belongs to its call), not at a system message. */
const startsKeptRange = (m: AgentMessage) => m.role !== "toolResult" && m.role !== "system";
/** What opens a turn: any user-side input (not an assistant reply, tool result or system message). */
const opensTurn = (m: AgentMessage) => startsKeptRange(m) && m.role !== "assistant";

const isTurnStart = (p: ProjectedEntry) => p.entry.type !== "compaction" && p.messages.some(opensTurn);

/**
 * Entries that sit between a tool call and its result (after the call, up to the result): a cut
 * there would keep a result without its call or the reverse.
 */
function insideToolExchanges(entries: readonly ProjectedEntry[]): Set<number> {
  const callAt = new Map<string, number>();
  const inside = new Set<number>();
  entries.forEach(({ messages }, i) => {
    for (const m of messages) {
      if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") callAt.set(b.id, i);
      if (m.role === "toolResult") {
        const from = callAt.get(m.toolCallId);
        if (from !== undefined) for (let j = from + 1; j <= i; j++) inside.add(j);
      }
    }
  });
  return inside;
}

/**
 * Finds where to cut `entries[start, end)`: walking back from the newest entry and adding up
 * estimated tokens until `keepRecentTokens` is reached, then taking the nearest valid cut at or
 * after that entry (a user, assistant, bash, custom or summary message; never a tool result or a
 * point inside a tool call/result exchange). Entries that contribute no context just before the
 * cut are kept with it. A cut at an assistant message splits its turn; the turn's start is
 * reported so its prefix can be summarized on its own. With less than `keepRecentTokens` in
 * total, the cut is at the first valid point, so nothing is summarized.
 */
export function findCutPoint(entries: readonly ProjectedEntry[], start: number, end: number, keepRecentTokens: number): CutPoint {
  const blocked = insideToolExchanges(entries);
  const valid: number[] = [];
  for (let i = start; i < end; i++) {
    const { entry, messages } = entries[i];
    if (entry.type !== "compaction" && !blocked.has(i) && messages.some(startsKeptRange)) valid.push(i);
  }
  if (valid.length === 0) return { firstKeptIndex: start, turnStartIndex: -1, isSplitTurn: false };

  let cut = valid[0];
  let overBudget = false;
  let tokens = 0;
  for (let i = end - 1; i >= start; i--) {
    const size = entries[i].messages.reduce((sum, m) => sum + estimateTokens(m), 0);
    if (size === 0) continue;
    tokens += size;
    if (tokens >= keepRecentTokens) {
      overBudget = true;
      cut = valid.find((v) => v >= i) ?? valid[valid.length - 1];
      break;
    }
  }
  if (overBudget && isOmittedAttemptSuffix(entries.slice(cut + 1, end))) cut++;

  const startsTurn = isTurnStart(entries[cut]);
  let turnStartIndex = -1;
  if (!startsTurn) for (let i = cut; i >= start && turnStartIndex === -1; i--) if (isTurnStart(entries[i])) turnStartIndex = i;
  while (cut > start && entries[cut - 1].entry.type !== "compaction" && entries[cut - 1].messages.length === 0) cut--;
  return { firstKeptIndex: cut, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}

/**
 * Overflow recovery leaves the failed assistant attempt on the branch with a context edit omitting
 * it. When everything after the cut is such omitted attempts and bookkeeping, the cut moves past
 * the last visible input, so the input that overflowed is summarized instead of kept verbatim.
 * Not when an edit there replaces something still visible (the attempt answered the old text).
 */
function isOmittedAttemptSuffix(suffix: readonly ProjectedEntry[]): boolean {
  const omitted = (p: ProjectedEntry) => p.entry.type !== "context_edit" && producesContext(p.entry) && p.messages.length === 0;
  const omittedIds = new Set(suffix.filter(omitted).map((p) => p.entry.id));
  return (
    suffix.some((p) => omitted(p) && p.entry.type === "message" && p.entry.message.role === "assistant") &&
    suffix.every((p) => p.entry.type !== "compaction" && (!producesContext(p.entry) || omitted(p))) &&
    !suffix.some((p) => p.entry.type === "context_edit" && p.entry.replacement !== null && !omittedIds.has(p.entry.targetId))
  );
}

export interface CompactionPreparation {
  firstKeptEntryId: string;
  /** Whole turns before the cut (after the previous compaction's summary). */
  messagesToSummarize: AgentMessage[];
  /** For a split turn: its part before the cut. */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  /** The context size now, as the next request would send it. */
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOps;
  settings: CompactionSettings;
}

const conversation = (p: ProjectedEntry) => (p.entry.type === "compaction" ? [] : p.messages.filter((m) => m.role !== "system"));

/**
 * What a compaction of the branch `path` would summarize and keep, or undefined when there is
 * nothing to summarize (the branch ends with a compaction, or is within keepRecentTokens).
 * A previous compaction's summary is updated rather than summarized again: the span starts at
 * its kept range, which is summarized along with what followed.
 */
export function prepareCompaction(path: readonly SessionEntry[], settings: CompactionSettings): CompactionPreparation | undefined {
  if (path.length === 0 || path[path.length - 1].type === "compaction") return undefined;
  const projection = projectBranch(path);
  const entries = projection.entries;
  const previousAt = entries.findIndex((p) => p.entry.type === "compaction" && p.messages.length > 0);
  const previous = previousAt === -1 ? undefined : (entries[previousAt].entry as SessionEntry & { type: "compaction" });
  const start = previousAt + 1;

  const cut = findCutPoint(entries, start, entries.length, settings.keepRecentTokens);
  const firstKept = entries[cut.firstKeptIndex]?.entry;
  if (!firstKept) return undefined;
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptIndex;
  const messagesToSummarize = entries.slice(start, historyEnd).flatMap(conversation);
  const turnPrefixMessages = cut.isSplitTurn ? entries.slice(cut.turnStartIndex, cut.firstKeptIndex).flatMap(conversation) : [];
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

  const fileOps = emptyFileOps();
  if (previous && !previous.fromHook) carryFileOps(previous.details, fileOps);
  for (const m of [...messagesToSummarize, ...turnPrefixMessages]) collectFileOps(m, fileOps);
  return {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore: estimateProjectedTokens(projection, path),
    previousSummary: previous?.summary,
    fileOps,
    settings,
  };
}

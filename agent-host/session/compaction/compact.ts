import type { CompactionResult, Usage } from "../../../shared/protocol";
import type { Model } from "../../ai/types";
import type { CompactionEntry } from "../../../shared/session-format/schema";
import type { SessionManager } from "../persistence/session-manager";
import { DEFAULT_COMPACTION_SETTINGS, prepareCompaction, type CompactionPreparation, type CompactionSettings } from "./cut-point";
import { fileLists, formatFileLists, stripFileLists, type CompactionDetails } from "./file-ops";
import { currentSystemMessage, projectBranch } from "./projection";
import { estimateMessagesTokens } from "./tokens";
import {
  CompactionCancelledError,
  NO_EARLIER_HISTORY,
  summarizeHistory,
  summarizeTurnPrefix,
  TURN_PREFIX_HEADING,
  type SummaryRequestOptions,
} from "./summarize";

export { isContextOverflow, isRecoverableLength } from "./overflow";
export { CompactionCancelledError };

/** pi's refusals, word for word (clients show them). */
export const NOTHING_TO_COMPACT = "Nothing to compact (session too small)";
export const ALREADY_COMPACTED = "Already compacted";

/** Whether the context has grown into the room reserved for the reply: contextTokens > contextWindow − reserveTokens. */
export function shouldAutoCompact(contextTokens: number, contextWindow: number, settings: Pick<CompactionSettings, "enabled" | "reserveTokens">): boolean {
  if (!settings.enabled || !(contextWindow > 0)) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}

export interface CompactOptions extends SummaryRequestOptions {
  /** Missing fields take pi's defaults. */
  settings?: Partial<CompactionSettings>;
  /** `/compact <instructions>`: what the summary should focus on. */
  customInstructions?: string;
}

/** A compaction before it is appended: what the default summarizer (or an extension) produced. */
export type CompactionDraft = Omit<CompactionResult, "estimatedTokensAfter">;

function addUsage(a: Usage, b: Usage): Usage {
  const sumOptional = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const cacheWrite1h = sumOptional(a.cacheWrite1h, b.cacheWrite1h);
  const reasoning = sumOptional(a.reasoning, b.reasoning);
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    ...(cacheWrite1h !== undefined ? { cacheWrite1h } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
    totalTokens: a.totalTokens + b.totalTokens,
    cost: {
      input: a.cost.input + b.cost.input,
      output: a.cost.output + b.cost.output,
      cacheRead: a.cost.cacheRead + b.cost.cacheRead,
      cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
      total: a.cost.total + b.cost.total,
    },
  };
}

/**
 * Writes the summary for a prepared compaction. A split turn gets two summaries joined under a
 * heading: the history (or the previous summary when only the turn is new) and the turn's prefix.
 * The file lists (cumulative across compactions) end the summary and go into `details`.
 */
export async function summarizeCompaction(preparation: CompactionPreparation, model: Model, options: CompactOptions = {}): Promise<CompactionDraft> {
  const { messagesToSummarize, turnPrefixMessages, settings } = preparation;
  const previousSummary = preparation.previousSummary === undefined ? undefined : stripFileLists(preparation.previousSummary);
  const history = () => summarizeHistory(messagesToSummarize, model, settings.reserveTokens, { ...options, previousSummary });

  let summary: string;
  let usage: Usage | undefined;
  if (preparation.isSplitTurn && turnPrefixMessages.length > 0) {
    const earlier = messagesToSummarize.length > 0 ? await history() : { text: previousSummary ?? NO_EARLIER_HISTORY, usage: undefined };
    const prefix = await summarizeTurnPrefix(turnPrefixMessages, model, settings.reserveTokens, options);
    summary = `${earlier.text}\n\n---\n\n${TURN_PREFIX_HEADING}\n\n${prefix.text}`;
    usage = earlier.usage ? addUsage(earlier.usage, prefix.usage) : prefix.usage;
  } else {
    const result = await history();
    summary = result.text;
    usage = result.usage;
  }
  const details: CompactionDetails = fileLists(preparation.fileOps);
  return { summary: summary + formatFileLists(details), firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, usage, details };
}

/**
 * Appends a compaction entry at the leaf, checkpointing the system prompt and tools in force, and
 * returns it with the estimated size of the context it leaves (chars/4 over the rebuilt context).
 * `fromHook` marks a summary an extension provided (its `details` are its own).
 */
export function appendCompaction(session: SessionManager, draft: CompactionDraft, fromHook = false): { entry: CompactionEntry; result: CompactionResult } {
  const system = currentSystemMessage(projectBranch(session.branch()).messages);
  const entry = session.append({
    type: "compaction",
    summary: draft.summary,
    firstKeptEntryId: draft.firstKeptEntryId,
    tokensBefore: draft.tokensBefore,
    ...(draft.details !== undefined ? { details: draft.details } : {}),
    ...(draft.usage ? { usage: draft.usage } : {}),
    fromHook,
    ...(system ? { systemMessage: { ...system, timestamp: Date.now() } } : {}),
  }) as CompactionEntry;
  const estimatedTokensAfter = estimateMessagesTokens(session.context().messages);
  const result: CompactionResult = { ...draft, estimatedTokensAfter };
  return { entry, result };
}

/**
 * Compacts the current branch: finds the cut, summarizes what lies before it with `model`, and
 * appends the compaction entry. Throws pi's refusals when there is nothing to summarize, and
 * CompactionCancelledError when `options.signal` aborts (nothing is appended then). Summary
 * failures throw "Summarization failed: …"; the session is unchanged.
 */
export async function compact(session: SessionManager, model: Model, options: CompactOptions = {}): Promise<CompactionResult> {
  if (options.signal?.aborted) throw new CompactionCancelledError();
  const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, ...options.settings };
  const path = session.branch();
  const preparation = prepareCompaction(path, settings);
  if (!preparation) throw new Error(path.at(-1)?.type === "compaction" ? ALREADY_COMPACTED : NOTHING_TO_COMPACT);
  const leaf = session.leafId;

  const draft = await summarizeCompaction(preparation, model, options);
  if (options.signal?.aborted) throw new CompactionCancelledError();
  if (leaf !== null && !session.branch().some((e) => e.id === leaf)) throw new Error("Compaction failed: the session moved to another branch while summarizing");
  return appendCompaction(session, draft).result;
}

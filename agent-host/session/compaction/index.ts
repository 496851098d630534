export {
  ALREADY_COMPACTED,
  appendCompaction,
  compact,
  CompactionCancelledError,
  NOTHING_TO_COMPACT,
  shouldAutoCompact,
  summarizeCompaction,
  type CompactionDraft,
  type CompactOptions,
} from "./compact";
export { DEFAULT_COMPACTION_SETTINGS, findCutPoint, prepareCompaction, type CompactionPreparation, type CompactionSettings, type CutPoint } from "./cut-point";
export { type CompactionDetails, type FileOps } from "./file-ops";
export { isContextOverflow, isOverflowErrorText, isRecoverableLength } from "./overflow";
export { currentSystemMessage, projectBranch, type ProjectedEntry, type Projection } from "./projection";
export { serializeConversation, type RetryCallbacks, type RetryPolicy, type SummaryRequestOptions } from "./summarize";
export { contextTokensFromUsage, estimateContextTokens, estimateMessagesTokens, estimateProjectedTokens, estimateTokens, type ContextEstimate } from "./tokens";

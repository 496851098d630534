import type { AgentMessage, CompactionResult, Usage } from "../../../shared/protocol";
import type { TextContent, ImageContent, ThinkingLevel } from "../../ai/types";

/** Pi's session file format, version 3 (docs/session-format.md of the pi package). */
export const SESSION_VERSION = 3;

export interface SessionHeader {
  type: "session";
  version: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}

interface EntryBase {
  id: string;
  parentId: string | null;
  /** ISO 8601. */
  timestamp: string;
}

export type MessageEntry = EntryBase & { type: "message"; message: AgentMessage };
export type ModelChangeEntry = EntryBase & { type: "model_change"; provider: string; modelId: string };
export type ThinkingLevelChangeEntry = EntryBase & { type: "thinking_level_change"; thinkingLevel: ThinkingLevel };
export type CompactionEntry = EntryBase &
  Omit<CompactionResult, "estimatedTokensAfter"> & { type: "compaction"; systemMessage?: AgentMessage; fromHook?: boolean };
export type BranchSummaryEntry = EntryBase & { type: "branch_summary"; fromId: string; summary: string; usage?: Usage; details?: unknown; fromHook?: boolean };
export type CustomEntry = EntryBase & { type: "custom"; customType: string; data?: unknown };
export type CustomMessageEntry = EntryBase & {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
};
export type LabelEntry = EntryBase & { type: "label"; targetId: string; label?: string };
export type SessionInfoEntry = EntryBase & { type: "session_info"; name?: string };
export type UsageEntry = EntryBase & { type: "usage"; kind: string; provider: string; model: string; usage: Usage };
export type ContextEditEntry = EntryBase & { type: "context_edit"; targetId: string; replacement: null | string | (TextContent | ImageContent)[] };

export type SessionEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry
  | UsageEntry
  | ContextEditEntry;

/** An entry as it is built, before the manager gives it an id, parent and time. */
export type NewEntry = SessionEntry extends infer E ? (E extends SessionEntry ? Omit<E, "id" | "parentId" | "timestamp"> : never) : never;

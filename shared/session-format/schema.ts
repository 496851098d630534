/**
 * Pi's session file, version 3 (docs/session-format.md of the pi package): one JSON object per
 * line, a `session` header, then entries that form a tree by id / parentId. Declared once here;
 * the types are derived. Entries are read tolerantly (parse.ts): these schemas say what the
 * kinds this code knows look like, they are not checked line by line (a 10 MB session would pay
 * for it at every switch). The wire's `SessionEntry` (shared/protocol) is the loose form any
 * agent may send.
 */
import { Type, type TProperties } from "@sinclair/typebox";
import { ImageContent, TextContent, Usage } from "../protocol/content";
import { AgentMessage } from "../protocol/messages";
import { ThinkingLevel } from "../protocol/model";
import { CompactionResult } from "../protocol/session";
import { lazySchema, type StaticOf } from "../protocol/lazy-schema";

export { SESSION_VERSION } from "./version";

export const SessionHeader = lazySchema(() => Type.Object({
  type: Type.Literal("session"),
  version: Type.Number(),
  id: Type.String(),
  timestamp: Type.String({ description: "ISO 8601" }),
  cwd: Type.String(),
  parentSession: Type.Optional(Type.String({ description: "the session file this one was forked from" })),
}));
export type SessionHeader = StaticOf<typeof SessionHeader>;

/** An entry kind: its type, the tree fields every entry has, and its own fields. */
const entry = <K extends string, P extends TProperties>(type: K, properties: P) =>
  Type.Object({
    type: Type.Literal(type),
    id: Type.String(),
    parentId: Type.Union([Type.String(), Type.Null()]),
    timestamp: Type.String({ description: "ISO 8601" }),
    ...properties,
  });

const Content = lazySchema(() => Type.Union([Type.String(), Type.Array(Type.Union([TextContent(), ImageContent()]))]));
/** A compaction's fields as the session stores them (the estimate is not stored). */
function storedCompaction() {
  const { estimatedTokensAfter: _notStored, ...stored } = CompactionResult().properties;
  return stored;
}

const MessageEntry = lazySchema(() => entry("message", { message: AgentMessage() }));
const ModelChangeEntry = lazySchema(() => entry("model_change", { provider: Type.String(), modelId: Type.String() }));
const ThinkingLevelChangeEntry = lazySchema(() => entry("thinking_level_change", { thinkingLevel: ThinkingLevel() }));
export const CompactionEntry = lazySchema(() => entry("compaction", { ...storedCompaction(), systemMessage: Type.Optional(AgentMessage()), fromHook: Type.Optional(Type.Boolean()) }));
const BranchSummaryEntry = lazySchema(() => entry("branch_summary", {
  fromId: Type.String(), summary: Type.String(), usage: Type.Optional(Usage()), details: Type.Optional(Type.Unknown()), fromHook: Type.Optional(Type.Boolean()),
}));
const CustomEntry = lazySchema(() => entry("custom", { customType: Type.String(), data: Type.Optional(Type.Unknown()) }));
const CustomMessageEntry = lazySchema(() => entry("custom_message", { customType: Type.String(), content: Content(), display: Type.Boolean(), details: Type.Optional(Type.Unknown()) }));
const LabelEntry = lazySchema(() => entry("label", { targetId: Type.String(), label: Type.Optional(Type.String()) }));
const SessionInfoEntry = lazySchema(() => entry("session_info", { name: Type.Optional(Type.String()) }));
const UsageEntry = lazySchema(() => entry("usage", { kind: Type.String(), provider: Type.String(), model: Type.String(), usage: Usage() }));
/** Ours, kept by pi: what the model sees of `targetId` from now on (null: nothing). */
const ContextEditEntry = lazySchema(() => entry("context_edit", { targetId: Type.String(), replacement: Type.Union([Type.Null(), Content()]) }));

export const SessionEntry = lazySchema(() => Type.Union([
  MessageEntry(), ModelChangeEntry(), ThinkingLevelChangeEntry(), CompactionEntry(), BranchSummaryEntry(), CustomEntry(),
  CustomMessageEntry(), LabelEntry(), SessionInfoEntry(), UsageEntry(), ContextEditEntry(),
]));
export type SessionEntry = StaticOf<typeof SessionEntry>;
export type CompactionEntry = StaticOf<typeof CompactionEntry>;

/** An entry as it is built, before the session gives it an id, parent and time. */
export type NewEntry = SessionEntry extends infer E ? (E extends SessionEntry ? Omit<E, "id" | "parentId" | "timestamp"> : never) : never;

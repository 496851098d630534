import { Type } from "@sinclair/typebox";
import { Usage } from "./content";
import { Model, PermissionMode, QueueMode, ThinkingLevel } from "./model";
import { lazySchema, type StaticOf } from "./lazy-schema";

/** One line of a session file (the header excluded). Entry kinds vary by Pi version: typed loosely. */
export const SessionEntry = lazySchema(() => Type.Object({
  type: Type.String(),
  id: Type.String(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.String({ description: "ISO 8601" }),
}));
export type SessionEntry = StaticOf<typeof SessionEntry> & Record<string, unknown>;

/** A node of get_tree. The schema checks one level; `children` are nodes again (see the type). */
export const SessionTreeNode = lazySchema(() => Type.Object({
  entry: SessionEntry(),
  children: Type.Array(Type.Unknown()),
  label: Type.Optional(Type.String()),
  labelTimestamp: Type.Optional(Type.String()),
}));
export type SessionTreeNode = Omit<StaticOf<typeof SessionTreeNode>, "children" | "entry"> & {
  entry: SessionEntry;
  children: SessionTreeNode[];
};

export const SessionState = lazySchema(() => Type.Object({
  model: Type.Optional(Type.Union([Model(), Type.Null()])),
  thinkingLevel: ThinkingLevel(),
  isStreaming: Type.Boolean(),
  isCompacting: Type.Boolean(),
  steeringMode: QueueMode(),
  followUpMode: QueueMode(),
  sessionFile: Type.Optional(Type.String()),
  sessionId: Type.String(),
  sessionName: Type.Optional(Type.String()),
  autoCompactionEnabled: Type.Boolean(),
  messageCount: Type.Number(),
  pendingMessageCount: Type.Optional(Type.Number({ description: "Pi" })),
  queuedMessageCount: Type.Optional(Type.Number({ description: "oh-my-pi's name for pendingMessageCount" })),
  interruptMode: Type.Optional(Type.Union([Type.Literal("immediate"), Type.Literal("wait")])),
  todoPhases: Type.Optional(Type.Array(Type.Unknown())),
  permissionMode: Type.Optional(PermissionMode()),
  deltaIntervalMs: Type.Optional(Type.Number({ description: "ours: set_delta_interval's pacing of streamed deltas" })),
}));
export type SessionState = StaticOf<typeof SessionState>;

const TokenTotals = lazySchema(() => Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  total: Type.Number(),
}));

export const SessionStats = lazySchema(() => Type.Object({
  sessionFile: Type.Optional(Type.String()),
  sessionId: Type.String(),
  userMessages: Type.Number(),
  assistantMessages: Type.Number(),
  toolCalls: Type.Number(),
  toolResults: Type.Number(),
  totalMessages: Type.Number(),
  tokens: TokenTotals(),
  cost: Type.Number(),
  contextUsage: Type.Optional(
    Type.Object({
      tokens: Type.Union([Type.Number(), Type.Null()]),
      contextWindow: Type.Number(),
      percent: Type.Union([Type.Number(), Type.Null()]),
    }),
  ),
}));
export type SessionStats = StaticOf<typeof SessionStats>;

export const BashResult = lazySchema(() => Type.Object({
  output: Type.String(),
  exitCode: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  cancelled: Type.Boolean(),
  truncated: Type.Boolean(),
  fullOutputPath: Type.Optional(Type.String()),
}));
export type BashResult = StaticOf<typeof BashResult>;

export const CompactionResult = lazySchema(() => Type.Object({
  summary: Type.String(),
  firstKeptEntryId: Type.String(),
  tokensBefore: Type.Number(),
  estimatedTokensAfter: Type.Optional(Type.Number()),
  usage: Type.Optional(Usage()),
  details: Type.Optional(Type.Unknown()),
}));
export type CompactionResult = StaticOf<typeof CompactionResult>;

export const SourceInfo = lazySchema(() => Type.Object({
  path: Type.String(),
  source: Type.String(),
  scope: Type.String(),
  origin: Type.String(),
  baseDir: Type.Optional(Type.String()),
}));

export const SlashCommand = lazySchema(() => Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  source: Type.Union([Type.Literal("extension"), Type.Literal("prompt"), Type.Literal("skill")]),
  sourceInfo: Type.Optional(SourceInfo()),
  /** Pi <= 0.73 docs: */
  location: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
}));
export type SlashCommand = StaticOf<typeof SlashCommand>;

export const TodoTask = lazySchema(() => Type.Object({
  id: Type.String(),
  content: Type.String(),
  status: Type.Union([
    Type.Literal("pending"),
    Type.Literal("in_progress"),
    Type.Literal("completed"),
    Type.Literal("abandoned"),
  ]),
}));
export const TodoPhase = lazySchema(() => Type.Object({ id: Type.String(), name: Type.String(), tasks: Type.Array(TodoTask()) }));
export type TodoPhase = StaticOf<typeof TodoPhase>;

import { Type } from "@sinclair/typebox";
import { AssistantContent, JsonObject, StopReason, TextContent, TextOrImage, Usage } from "./content";
import { lazySchema, type StaticOf } from "./lazy-schema";

const Timestamp = lazySchema(() => Type.Number({ description: "Unix time in milliseconds" }));

export const SystemMessage = lazySchema(() => Type.Object({
  role: Type.Literal("system"),
  content: Type.Union([Type.String(), Type.Array(TextContent())]),
  sections: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]))),
  toolsAdded: Type.Optional(Type.Array(JsonObject())),
  toolsRemoved: Type.Optional(Type.Array(Type.Unknown())),
  replace: Type.Optional(Type.Boolean()),
  timestamp: Timestamp(),
}));
export type SystemMessage = StaticOf<typeof SystemMessage>;

export const UserMessage = lazySchema(() => Type.Object({
  role: Type.Literal("user"),
  content: Type.Union([Type.String(), Type.Array(TextOrImage())]),
  timestamp: Timestamp(),
}));
export type UserMessage = StaticOf<typeof UserMessage>;

export const AssistantMessage = lazySchema(() => Type.Object({
  role: Type.Literal("assistant"),
  content: Type.Array(AssistantContent()),
  api: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  responseModel: Type.Optional(Type.String()),
  responseId: Type.Optional(Type.String()),
  providerThinkingLevel: Type.Optional(Type.String()),
  diagnostics: Type.Optional(Type.Array(Type.Unknown())),
  usage: Usage(),
  stopReason: StopReason(),
  deferred: Type.Optional(JsonObject()),
  errorMessage: Type.Optional(Type.String()),
  rawStopReason: Type.Optional(Type.String()),
  endTurn: Type.Optional(Type.Boolean()),
  timestamp: Timestamp(),
}));
export type AssistantMessage = StaticOf<typeof AssistantMessage>;

export const ToolResultMessage = lazySchema(() => Type.Object({
  role: Type.Literal("toolResult"),
  toolCallId: Type.String(),
  toolName: Type.String(),
  content: Type.Array(TextOrImage()),
  details: Type.Optional(Type.Unknown()),
  usage: Type.Optional(Usage()),
  isError: Type.Boolean(),
  timestamp: Timestamp(),
}));
export type ToolResultMessage = StaticOf<typeof ToolResultMessage>;

export const BashExecutionMessage = lazySchema(() => Type.Object({
  role: Type.Literal("bashExecution"),
  command: Type.String(),
  output: Type.String(),
  exitCode: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  cancelled: Type.Boolean(),
  truncated: Type.Boolean(),
  fullOutputPath: Type.Optional(Type.String()),
  excludeFromContext: Type.Optional(Type.Boolean()),
  timestamp: Timestamp(),
}));
export type BashExecutionMessage = StaticOf<typeof BashExecutionMessage>;

export const CustomMessage = lazySchema(() => Type.Object({
  role: Type.Literal("custom"),
  customType: Type.String(),
  content: Type.Union([Type.String(), Type.Array(TextOrImage())]),
  display: Type.Boolean(),
  details: Type.Optional(Type.Unknown()),
  timestamp: Timestamp(),
}));
export type CustomMessage = StaticOf<typeof CustomMessage>;

export const BranchSummaryMessage = lazySchema(() => Type.Object({
  role: Type.Literal("branchSummary"),
  summary: Type.String(),
  fromId: Type.Union([Type.String(), Type.Null()]),
  timestamp: Timestamp(),
}));
export type BranchSummaryMessage = StaticOf<typeof BranchSummaryMessage>;

export const CompactionSummaryMessage = lazySchema(() => Type.Object({
  role: Type.Literal("compactionSummary"),
  summary: Type.String(),
  tokensBefore: Type.Number(),
  timestamp: Timestamp(),
}));
export type CompactionSummaryMessage = StaticOf<typeof CompactionSummaryMessage>;

export const AgentMessage = lazySchema(() => Type.Union([
  SystemMessage(),
  UserMessage(),
  AssistantMessage(),
  ToolResultMessage(),
  BashExecutionMessage(),
  CustomMessage(),
  BranchSummaryMessage(),
  CompactionSummaryMessage(),
]));
export type AgentMessage = StaticOf<typeof AgentMessage>;

import { Type } from "@sinclair/typebox";
import { lazySchema, type StaticOf } from "./lazy-schema";

export const TextContent = lazySchema(() => Type.Object({
  type: Type.Literal("text"),
  text: Type.String(),
  textSignature: Type.Optional(Type.String()),
}));
export type TextContent = StaticOf<typeof TextContent>;

export const ThinkingContent = lazySchema(() => Type.Object({
  type: Type.Literal("thinking"),
  thinking: Type.String(),
  thinkingSignature: Type.Optional(Type.String()),
  redacted: Type.Optional(Type.Boolean()),
}));
export type ThinkingContent = StaticOf<typeof ThinkingContent>;

export const ImageContent = lazySchema(() => Type.Object({
  type: Type.Literal("image"),
  data: Type.String({ description: "base64-encoded image bytes" }),
  mimeType: Type.String(),
}));
export type ImageContent = StaticOf<typeof ImageContent>;

export const JsonObject = lazySchema(() => Type.Record(Type.String(), Type.Unknown()));
export type JsonObject = StaticOf<typeof JsonObject>;

export const ToolCall = lazySchema(() => Type.Object({
  type: Type.Literal("toolCall"),
  id: Type.String(),
  name: Type.String(),
  arguments: JsonObject(),
  thoughtSignature: Type.Optional(Type.String()),
  namespace: Type.Optional(Type.String()),
}));
export type ToolCall = StaticOf<typeof ToolCall>;

export const TextOrImage = lazySchema(() => Type.Union([TextContent(), ImageContent()]));
export type TextOrImage = StaticOf<typeof TextOrImage>;

export const AssistantContent = lazySchema(() => Type.Union([TextContent(), ThinkingContent(), ToolCall()]));
export type AssistantContent = StaticOf<typeof AssistantContent>;

export const Cost = lazySchema(() => Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  total: Type.Number(),
}));

export const Usage = lazySchema(() => Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  cacheWrite1h: Type.Optional(Type.Number()),
  reasoning: Type.Optional(Type.Number({ description: "already included in output" })),
  totalTokens: Type.Number(),
  cost: Cost(),
}));
export type Usage = StaticOf<typeof Usage>;

export const StopReason = lazySchema(() => Type.Union([
  Type.Literal("pending"),
  Type.Literal("stop"),
  Type.Literal("length"),
  Type.Literal("toolUse"),
  Type.Literal("error"),
  Type.Literal("aborted"),
  Type.Literal("deferred"),
]));
export type StopReason = StaticOf<typeof StopReason>;

/** What a tool returns, streamed in tool_execution_update and final in tool_execution_end. */
export const ToolResult = lazySchema(() => Type.Object({
  content: Type.Array(TextOrImage()),
  details: Type.Optional(Type.Unknown()),
}));
export type ToolResult = StaticOf<typeof ToolResult>;

/** The text of a message's content (a string, or its text parts joined; images add nothing). */
export function contentText(content: string | TextOrImage[] | unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((c: { type?: string; text?: string }) => (c.type === "text" ? [c.text ?? ""] : [])).join("");
}

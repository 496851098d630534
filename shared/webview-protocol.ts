import { Type, type Static } from "@sinclair/typebox";

/** The postMessage channel between the extension and the chat webview, declared once. */

export const AgentStatus = Type.Union([
  Type.Literal("stopped"),
  Type.Literal("starting"),
  Type.Literal("idle"),
  Type.Literal("running"),
  Type.Literal("crashed"),
]);
export type AgentStatus = Static<typeof AgentStatus>;

export const ChatItem = Type.Object({
  key: Type.String(),
  kind: Type.Union([Type.Literal("user"), Type.Literal("assistant"), Type.Literal("tool"), Type.Literal("notice"), Type.Literal("error")]),
  text: Type.String(),
  title: Type.Optional(Type.String()),
  streaming: Type.Optional(Type.Boolean()),
});
export type ChatItem = Static<typeof ChatItem>;

export const toWebviewSchemas = {
  status: Type.Object({ type: Type.Literal("status"), status: AgentStatus, detail: Type.Optional(Type.String()) }),
  reset: Type.Object({ type: Type.Literal("reset"), items: Type.Array(ChatItem) }),
  /** Adds an item, or replaces the one with the same key. */
  upsert: Type.Object({ type: Type.Literal("upsert"), item: ChatItem }),
  /** Appends streamed text to an item. */
  append: Type.Object({ type: Type.Literal("append"), key: Type.String(), text: Type.String() }),
  setInput: Type.Object({ type: Type.Literal("setInput"), text: Type.String() }),
};
export const ToWebview = Type.Union(Object.values(toWebviewSchemas));
export type ToWebview = Static<typeof ToWebview>;

export const fromWebviewSchemas = {
  ready: Type.Object({ type: Type.Literal("ready") }),
  prompt: Type.Object({ type: Type.Literal("prompt"), text: Type.String({ minLength: 1, maxLength: 1_000_000 }) }),
  abort: Type.Object({ type: Type.Literal("abort") }),
};
export const FromWebview = Type.Union(Object.values(fromWebviewSchemas));
export type FromWebview = Static<typeof FromWebview>;

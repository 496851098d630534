import { Type } from "@sinclair/typebox";
import { JsonObject, ToolResult } from "./content";
import { lazySchema, type StaticOf } from "./lazy-schema";

/** Agent → client: run a tool the client registered with set_host_tools. */
export const HostToolCall = lazySchema(() => Type.Object({
  type: Type.Literal("host_tool_call"),
  id: Type.String(),
  toolCallId: Type.String(),
  toolName: Type.String(),
  arguments: JsonObject(),
}));
export type HostToolCall = StaticOf<typeof HostToolCall>;

/** Agent → client: the call `targetId` is no longer wanted. */
export const HostToolCancel = lazySchema(() => Type.Object({
  type: Type.Literal("host_tool_cancel"),
  id: Type.String(),
  targetId: Type.String(),
}));
export type HostToolCancel = StaticOf<typeof HostToolCancel>;

/** Client → agent: progress of call `id`. */
export const HostToolUpdate = lazySchema(() => Type.Object({
  type: Type.Literal("host_tool_update"),
  id: Type.String(),
  partialResult: ToolResult(),
}));
export type HostToolUpdate = StaticOf<typeof HostToolUpdate>;

/** Client → agent: the final result of call `id`. */
export const HostToolResult = lazySchema(() => Type.Object({
  type: Type.Literal("host_tool_result"),
  id: Type.String(),
  result: ToolResult(),
  isError: Type.Optional(Type.Boolean()),
}));
export type HostToolResult = StaticOf<typeof HostToolResult>;

import type { TSchema } from "@sinclair/typebox";
import { commandSchemas, type CommandType, type RpcCommand } from "./commands";
import { eventSchemas, type AgentEvent } from "./events";
import { ExtensionUiResponse, uiRequestSchemas, type ExtensionUiRequest } from "./extension-ui";
import { HostToolCall, HostToolCancel, HostToolResult, HostToolUpdate } from "./host-tools";
import { ErrorResponse, successResponseSchema, type RpcResponse } from "./responses";
import { lazyTable } from "./lazy-schema";

/** Everything a client may write to an agent's stdin. */
export type AgentInboundFrame = RpcCommand | ExtensionUiResponse | HostToolUpdate | HostToolResult;
/** Everything an agent may write to its stdout. */
export type AgentOutboundFrame = RpcResponse | AgentEvent | ExtensionUiRequest | HostToolCall | HostToolCancel;

/** Non-command inbound frames, keyed by `type`. */
export const inboundExtraSchemas = lazyTable({
  extension_ui_response: ExtensionUiResponse,
  host_tool_update: HostToolUpdate,
  host_tool_result: HostToolResult,
});

export const outboundExtraSchemas = lazyTable({
  host_tool_call: HostToolCall,
  host_tool_cancel: HostToolCancel,
});

export const isCommandType = (type: string): type is CommandType => Object.hasOwn(commandSchemas, type);
export const isEventType = (type: string): type is keyof typeof eventSchemas => Object.hasOwn(eventSchemas, type);

/** Named definitions for the published schema document, in a stable order. */
export function namedFrameSchemas(): { inbound: Record<string, TSchema>; outbound: Record<string, TSchema> } {
  const inbound: Record<string, TSchema> = {};
  for (const [type, schema] of Object.entries(commandSchemas)) inbound[`Command_${type}`] = schema;
  for (const [type, schema] of Object.entries(inboundExtraSchemas)) inbound[pascal(type)] = schema;

  const outbound: Record<string, TSchema> = {};
  for (const type of Object.keys(commandSchemas) as CommandType[]) outbound[`Response_${type}`] = successResponseSchema(type);
  outbound.ErrorResponse = ErrorResponse();
  for (const [type, schema] of Object.entries(eventSchemas)) outbound[`Event_${type}`] = schema;
  for (const [method, schema] of Object.entries(uiRequestSchemas)) outbound[`UiRequest_${method}`] = schema;
  for (const [type, schema] of Object.entries(outboundExtraSchemas)) outbound[pascal(type)] = schema;
  return { inbound, outbound };
}

function pascal(snake: string): string {
  return snake.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
}

const discriminators = new Set(["type"]);

/**
 * A reading copy of an outbound schema: the frame's own required fields stay, nested objects
 * keep only `type` required. Peers differ in what they put inside messages, models
 * and usage (docs examples even use placeholders), while the frame envelope is stable.
 */
export function lenient(schema: TSchema, depth = 0): TSchema {
  const copy: Record<string, unknown> = { ...schema };
  if (schema.properties) {
    const props: Record<string, TSchema> = {};
    for (const [key, value] of Object.entries(schema.properties as Record<string, TSchema>)) props[key] = lenient(value, depth + 1);
    copy.properties = props;
    if (depth > 0 && Array.isArray(schema.required)) {
      copy.required = (schema.required as string[]).filter((key) => discriminators.has(key));
    }
  }
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    if (Array.isArray(schema[key])) copy[key] = (schema[key] as TSchema[]).map((s) => lenient(s, depth));
  }
  if (schema.items && typeof schema.items === "object") copy.items = lenient(schema.items as TSchema, depth);
  if (schema.patternProperties) {
    const pp: Record<string, TSchema> = {};
    for (const [key, value] of Object.entries(schema.patternProperties as Record<string, TSchema>)) pp[key] = lenient(value, depth + 1);
    copy.patternProperties = pp;
  }
  return copy as TSchema;
}

import type { ValidateFunction } from "ajv";
import type { Static, TSchema } from "@sinclair/typebox";
import { commandSchemas } from "./commands";
import { eventSchemas } from "./events";
import { uiRequestSchemas } from "./extension-ui";
import {
  inboundExtraSchemas,
  isCommandType,
  isEventType,
  lenient,
  outboundExtraSchemas,
  type AgentInboundFrame,
  type AgentOutboundFrame,
} from "./frames";
import { check, compile, head, validator, type Checked } from "./keyed-check";
import { ErrorResponse, successResponseSchema } from "./responses";

export { describeErrors, type Checked } from "./keyed-check";

/** Strict check of what a client writes to an agent. */
export function checkInbound(value: unknown): Checked<AgentInboundFrame> {
  const h = head(value);
  if (!h) return { ok: false, error: "A frame must be a JSON object" };
  if (!h.type) return { ok: false, error: "A frame needs a string `type`", id: h.id };
  if (isCommandType(h.type)) {
    const type = h.type;
    return check(validator(`in:${type}`, () => commandSchemas[type]), value, h.id, type);
  }
  if (Object.hasOwn(inboundExtraSchemas, h.type)) {
    const type = h.type as keyof typeof inboundExtraSchemas;
    return check(validator(`in:${type}`, () => inboundExtraSchemas[type]), value, h.id, type);
  }
  return { ok: false, error: `Unknown command: ${h.type}`, id: h.id, type: h.type };
}

/**
 * Every schema checkOutbound looks up, by its key. The build compiles them to code
 * (dist/client-validators.js, esbuild.mjs) for the extension, which would otherwise compile each
 * on the first frame of its type, on the extension host: 40-140 ms tasks at a stream's start and
 * at a tool call's end (profiled in the real editor, issue 31).
 */
export function outboundSchemas(): Record<string, TSchema> {
  const lenientEach = (prefix: string, table: Record<string, TSchema>) => Object.fromEntries(Object.entries(table).map(([name, schema]) => [`${prefix}${name}`, lenient(schema)]));
  return {
    "out:error": ErrorResponse(),
    ...Object.fromEntries(Object.keys(commandSchemas).map((command) => [`out:response:${command}`, lenient(successResponseSchema(command as keyof typeof commandSchemas))])),
    ...lenientEach("out:ui:", uiRequestSchemas),
    ...lenientEach("out:", eventSchemas),
    ...lenientEach("out:", outboundExtraSchemas),
  };
}

/** Tolerant check of what an agent writes: unknown frame types are reported, not fatal. */
export function checkOutbound(value: unknown): Checked<AgentOutboundFrame> | { ok: "unknown"; frame: { type: string } } {
  const h = head(value);
  if (!h) return { ok: false, error: "A frame must be a JSON object" };
  if (!h.type) return { ok: false, error: "A frame needs a string `type`" };
  const type = h.type;
  if (type === "response") {
    const { command, success } = value as { command?: unknown; success?: unknown };
    if (success === false || typeof command !== "string") {
      return check(validator("out:error", ErrorResponse), value, h.id, "response");
    }
    if (!isCommandType(command)) return { ok: "unknown", frame: value as { type: string } };
    return check(validator(`out:response:${command}`, () => lenient(successResponseSchema(command))), value, h.id, `${command} response`);
  }
  if (type === "extension_ui_request") {
    const method = (value as { method?: unknown }).method;
    if (typeof method !== "string" || !Object.hasOwn(uiRequestSchemas, method)) {
      return { ok: false, error: `Unknown extension_ui_request method: ${String(method)}`, id: h.id, type };
    }
    const m = method as keyof typeof uiRequestSchemas;
    return check(validator(`out:ui:${m}`, () => lenient(uiRequestSchemas[m])), value, h.id, `${m} request`);
  }
  if (isEventType(type)) return check(validator(`out:${type}`, () => lenient(eventSchemas[type])), value, h.id, type);
  if (Object.hasOwn(outboundExtraSchemas, type)) {
    const t = type as keyof typeof outboundExtraSchemas;
    return check(validator(`out:${t}`, () => lenient(outboundExtraSchemas[t])), value, h.id, t);
  }
  return { ok: "unknown", frame: value as { type: string } };
}

/** A lazily compiled check for any schema, e.g. the webview channel's messages. */
export function checker<T extends TSchema>(schema: T, name: string): (value: unknown) => Checked<Static<T>> {
  let fn: ValidateFunction | undefined;
  return (value) => {
    fn ??= compile(schema);
    return check<Static<T>>(fn, value, undefined, name);
  };
}

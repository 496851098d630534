/**
 * The editor bridge's wire (#35): what the editor and its Pi extension (pi-editor-bridge.ts) say to
 * each other. No vscode import: both sides and the tests use it.
 *
 * The editor writes a handoff file (0600, in a 0700 folder of its own) and names it in
 * $PI_VSCODE_EDITOR_BRIDGE; the Pi extension reads it and deletes it while pi loads, before any
 * tool can run. It holds the channel's address, its per-session token and the tool definitions.
 *
 *   POST /hello                   the bridge loaded (the editor says so in the chat)
 *   GET  /mode                    "bridge" or "protocol": whether the agent takes set_host_tools
 *                                 (then its tools come that way and the bridge's are deactivated)
 *   POST /tools/<name>            {toolCallId, arguments} → NDJSON lines: {type:"update",partialResult}…
 *                                 then one {type:"result",result,isError?}; closing the request cancels
 *
 * Every request carries `Authorization: Bearer <token>`.
 */
import type { HostToolDefinition, TextOrImage, ToolResult } from "../../shared/protocol";
import { isRecord } from "../../shared/foreign-json";

export const EDITOR_BRIDGE_ENV = "PI_VSCODE_EDITOR_BRIDGE";

export interface BridgeHandoff {
  /** `http://127.0.0.1:PORT` */
  url: string;
  token: string;
  tools: HostToolDefinition[];
}

export type BridgeMode = "bridge" | "protocol";

export type BridgeLine = { type: "update"; partialResult: ToolResult } | { type: "result"; result: ToolResult; isError?: boolean };

/** The most a result line may weigh (an image of a few MB, base64): a longer line is refused, not buffered. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

const toolName = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** A handoff as read from its file (foreign: checked field by field), or why not. */
export function checkHandoff(value: unknown): BridgeHandoff | string {
  if (!isRecord(value)) return "not an object";
  const { url, token, tools } = value;
  if (typeof url !== "string" || !/^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(url)) return "url is not a loopback http address";
  if (typeof token !== "string" || token.length < 32) return "no token";
  if (!Array.isArray(tools)) return "no tools";
  const checked: HostToolDefinition[] = [];
  for (const tool of tools) {
    if (!isRecord(tool) || typeof tool.name !== "string" || !toolName.test(tool.name) || typeof tool.description !== "string" || !isRecord(tool.parameters)) return "a tool definition is malformed";
    checked.push({ name: tool.name, description: tool.description, parameters: tool.parameters as Record<string, unknown>, ...(typeof tool.label === "string" ? { label: tool.label } : {}) });
  }
  return { url, token, tools: checked };
}

/**
 * A tool result from the channel, kept to what a tool result may hold: text and image parts (with
 * string fields only) and `details`. Anything else (a part of another type, a toolCallId, a
 * `terminate`) is dropped; undefined when nothing usable is left.
 */
export function checkToolResult(value: unknown): ToolResult | undefined {
  if (!isRecord(value) || !Array.isArray(value.content)) return undefined;
  const content: TextOrImage[] = [];
  for (const part of value.content) {
    if (!isRecord(part)) continue;
    if (part.type === "text" && typeof part.text === "string") content.push({ type: "text", text: part.text });
    else if (part.type === "image" && typeof part.data === "string" && typeof part.mimeType === "string" && /^image\/[a-z0-9.+-]+$/.test(part.mimeType)) content.push({ type: "image", data: part.data, mimeType: part.mimeType });
  }
  return value.details === undefined ? { content } : { content, details: value.details };
}

/** One NDJSON line of a tool call's answer, checked; undefined for a line that is neither an update nor a result. */
export function checkLine(value: unknown): BridgeLine | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === "update") {
    const partialResult = checkToolResult(value.partialResult);
    return partialResult && { type: "update", partialResult };
  }
  if (value.type === "result") {
    const result = checkToolResult(value.result);
    return result && { type: "result", result, ...(value.isError === true ? { isError: true } : {}) };
  }
  return undefined;
}

/**
 * An MCP CallToolResult as the model reads it: text as text (over 20 KB its middle is cut, the
 * whole text saved to a temporary file named in the result), images as images, resource links
 * and embedded resources as a line naming them, `structuredContent` as JSON when there is no
 * content.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import type { ImageContent, TextContent } from "../ai/types";
import type { AgentToolResult } from "../agent/tool";
import type { CallToolResult } from "./sdk";

export const MAX_TEXT_CHARS = 20 * 1024;

type Block = CallToolResult["content"][number];

function blockToContent(block: Block, server: string): TextContent | ImageContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.data, mimeType: block.mimeType };
    case "audio":
      return { type: "text", text: `[audio ${block.mimeType}, ${block.data.length} base64 characters, not shown]` };
    case "resource_link":
      return { type: "text", text: `[resource ${block.uri}${block.name ? ` (${block.name})` : ""} on MCP server ${server}]` };
    case "resource": {
      const r = block.resource;
      return { type: "text", text: "text" in r && typeof r.text === "string" ? r.text : `[binary resource ${r.uri}${r.mimeType ? `, ${r.mimeType}` : ""}]` };
    }
    default:
      return { type: "text", text: JSON.stringify(block) };
  }
}

/** Text over the limit: its head and tail around a marker, the whole saved to a file. */
export function limitText(text: string, save: (text: string) => string | undefined = saveFull): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  const keep = MAX_TEXT_CHARS / 2;
  const cut = text.length - 2 * keep;
  const file = save(text);
  return `${text.slice(0, keep)}\n…${cut} chars truncated…${file ? ` (full text: ${file})` : ""}\n${text.slice(-keep)}`;
}

function saveFull(text: string): string | undefined {
  try {
    const file = join(mkdtempSync(join(os.tmpdir(), "pi-mcp-")), "result.txt");
    writeFileSync(file, text, { mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}

export interface McpCallDetails {
  server: string;
  tool: string;
  structuredContent?: Record<string, unknown>;
}

export function toAgentResult(result: CallToolResult, server: string, tool: string): AgentToolResult<McpCallDetails> {
  const blocks = Array.isArray(result.content) ? result.content : [];
  let content = blocks.map((b) => blockToContent(b, server));
  if (content.length === 0 && result.structuredContent) content = [{ type: "text", text: JSON.stringify(result.structuredContent) }];
  content = content.map((c) => (c.type === "text" ? { type: "text", text: limitText(c.text) } : c));
  if (content.length === 0) content = [{ type: "text", text: "(no output)" }];
  const details: McpCallDetails = { server, tool, ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}) };
  return { content, details, ...(result.isError === true ? { isError: true } : {}) };
}

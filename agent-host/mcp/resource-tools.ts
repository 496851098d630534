/**
 * The MCP resource tools (Pi 1.x, docs/mcp.md "Use resources"): `list_mcp_resources`,
 * `list_mcp_resource_templates`, `read_mcp_resource`, over every enabled, non-hidden server that
 * offers resources. Read-only. Resources for MCP Apps (`ui://`, `text/html;profile=mcp-app`) are
 * left out, as Pi leaves them out.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import type { ImageContent, TextContent } from "../ai/types";
import type { AgentTool, AnyAgentTool } from "../agent/tool";
import type { McpConnection } from "./connection";
import { limitText } from "./tool-result";

export const RESOURCE_TOOL_NAMES = ["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"] as const;

const listSchema = Type.Object({
  server: Type.Optional(Type.String({ description: "One server's resources (one page); without it, every server's." })),
  cursor: Type.Optional(Type.String({ description: "The nextCursor of the previous page (with server)." })),
});
const readSchema = Type.Object({
  server: Type.String({ description: "The MCP server." }),
  uri: Type.String({ description: "The resource's URI." }),
});

type Item = { uri?: string; uriTemplate?: string; mimeType?: string; [key: string]: unknown };
const isApp = (item: Item): boolean => (item.uri ?? item.uriTemplate ?? "").startsWith("ui://") || (item.mimeType ?? "").startsWith("text/html;profile=mcp-app");
const withoutIcons = ({ icons: _icons, ...rest }: Item): Item => rest;

export interface ResourceSource {
  /** Connections that offer resources, by server name (enabled, not hidden). */
  servers(): McpConnection[];
  settled(): Promise<void>;
}

function json(value: unknown): { content: TextContent[] } {
  return { content: [{ type: "text", text: limitText(JSON.stringify(value, null, 2)) }] };
}

function pick(source: ResourceSource, name: string): McpConnection {
  const found = source.servers().find((c) => c.config.name === name || c.config.name.replace(/-/g, "_") === name.replace(/^mcp__/, "").replace(/-/g, "_"));
  if (!found) throw new Error(`No MCP server with resources is named ${JSON.stringify(name)}; servers: ${source.servers().map((c) => c.config.name).join(", ") || "none"}`);
  return found;
}

function lister(source: ResourceSource, kind: "resources" | "resourceTemplates", name: string, description: string): AgentTool<typeof listSchema> {
  return {
    name, label: name, description, parameters: listSchema,
    async execute(_id, params: Static<typeof listSchema>, signal) {
      await source.settled();
      type Page = { [k: string]: unknown; nextCursor?: string };
      const list = async (c: McpConnection, cursor?: string): Promise<Page> =>
        c.request<Page>((client, options) => (kind === "resources" ? client.listResources(cursor ? { cursor } : undefined, options) : client.listResourceTemplates(cursor ? { cursor } : undefined, options)), signal);
      const items = (c: McpConnection, page: Page) => ((page[kind] as Item[] | undefined) ?? []).filter((i) => !isApp(i)).map((i) => ({ server: c.config.name, ...withoutIcons(i) }));
      if (params.server !== undefined) {
        const c = pick(source, params.server);
        const page = await list(c, params.cursor);
        return json({ server: c.config.name, [kind]: items(c, page), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
      }
      const all: unknown[] = [];
      for (const c of source.servers()) {
        let cursor: string | undefined;
        do {
          const page = await list(c, cursor);
          all.push(...items(c, page));
          cursor = page.nextCursor;
        } while (cursor);
      }
      return json({ [kind]: all });
    },
  };
}

function saveBlob(blob: string, uri: string): string {
  const file = join(mkdtempSync(join(os.tmpdir(), "pi-mcp-resource-")), (uri.split("/").pop() || "resource").replace(/[^A-Za-z0-9._-]/g, "_"));
  writeFileSync(file, Buffer.from(blob, "base64"), { mode: 0o600 });
  return file;
}

export function createResourceTools(source: ResourceSource): AnyAgentTool[] {
  const read: AgentTool<typeof readSchema> = {
    name: "read_mcp_resource",
    label: "read_mcp_resource",
    description: "Reads a resource of an MCP server by server and uri (find them with list_mcp_resources).",
    parameters: readSchema,
    async execute(_id, params: Static<typeof readSchema>, signal) {
      await source.settled();
      const c = pick(source, params.server);
      const result = await c.request((client, options) => client.readResource({ uri: params.uri }, options), signal);
      const content: (TextContent | ImageContent)[] = result.contents.map((part) => {
        if ("text" in part && typeof part.text === "string") return { type: "text", text: limitText(part.text) };
        const blob = "blob" in part && typeof part.blob === "string" ? part.blob : "";
        if (part.mimeType?.startsWith("image/")) return { type: "image", data: blob, mimeType: part.mimeType };
        return { type: "text", text: `[binary resource ${part.uri}${part.mimeType ? `, ${part.mimeType}` : ""} saved to ${saveBlob(blob, part.uri)}]` };
      });
      return { content: content.length > 0 ? content : [{ type: "text", text: "(empty resource)" }], details: { server: c.config.name, uri: params.uri } };
    },
  };
  return [
    lister(source, "resources", "list_mcp_resources", "Lists the resources of the MCP servers as JSON: { server?, resources: [{ server, uri, name, ... }], nextCursor? }."),
    lister(source, "resourceTemplates", "list_mcp_resource_templates", "Lists the URI templates of resources the MCP servers do not list directly, as JSON."),
    read,
  ];
}

/**
 * The MCP tools of all servers as agent tools, each with its name, exposure and annotations:
 * which are declared to the model now (direct ones, those tool_search loaded, never hidden ones
 * nor those --tools/--exclude-tools leave out), and which tool_search may still load.
 */
import type { TSchema } from "@sinclair/typebox";
import type { AnyAgentTool } from "../agent/tool";
import type { McpConnection } from "./connection";
import { mcpToolName, toolExposure, type Exposure } from "./exposure";
import type { McpTool } from "./sdk";
import { fieldNames } from "./codemode/description";
import { toAgentResult } from "./tool-result";
import type { SearchableTool } from "./tool-search";

export interface McpToolEntry {
  name: string;
  server: string;
  /** The server's own name for the tool. */
  tool: string;
  exposure: Exposure;
  readOnly: boolean;
  destructive: boolean;
  /** The fields of the tool's output schema, `{ a, b? }`, for codemode's note on a declared tool. */
  outputFields?: string;
  agentTool: AnyAgentTool;
  searchable: SearchableTool;
}

/** An MCP input schema as a tool's parameters: `$schema` left out (the validator knows one draft), an object at the top. */
export function parametersOf(schema: McpTool["inputSchema"] | undefined): TSchema {
  const { $schema: _ignored, ...rest } = (schema ?? { type: "object" }) as Record<string, unknown>;
  return { ...rest, type: "object" } as unknown as TSchema;
}

function parameterText(schema: unknown): string {
  const parts: string[] = [];
  const walk = (s: unknown, depth: number): void => {
    if (depth > 6 || s === null || typeof s !== "object") return;
    const o = s as Record<string, unknown>;
    if (typeof o.description === "string") parts.push(o.description);
    if (o.properties && typeof o.properties === "object") {
      for (const [k, v] of Object.entries(o.properties)) {
        parts.push(k);
        walk(v, depth + 1);
      }
    }
    walk(o.items, depth + 1);
  };
  walk(schema, 0);
  return parts.join(" ");
}

export function buildEntries(connections: readonly McpConnection[], selected: (name: string) => boolean): McpToolEntry[] {
  const taken = new Set<string>();
  const entries: McpToolEntry[] = [];
  for (const connection of connections) {
    // A server that dropped keeps its tools: the next call connects it again (its list is empty until it first connected).
    if (connection.state === "disabled" || connection.state === "closed") continue;
    const { config } = connection;
    for (const tool of connection.tools) {
      const name = mcpToolName(config.name, tool.name, (n) => taken.has(n));
      taken.add(name);
      if (!selected(name)) continue;
      const exposure = toolExposure(config, tool.name);
      const description = tool.description ?? tool.title ?? tool.name;
      const agentTool: AnyAgentTool = {
        name,
        label: tool.title ?? tool.annotations?.title ?? `${config.name}: ${tool.name}`,
        description,
        parameters: parametersOf(tool.inputSchema),
        async execute(_id, params, signal) {
          const result = await connection.call(tool.name, params as Record<string, unknown>, signal);
          // A codemode script gets the whole CallToolResult (`structured`); the model, its content.
          return { ...toAgentResult(result, config.name, tool.name), structured: result };
        },
      };
      entries.push({
        name, server: config.name, tool: tool.name, exposure,
        readOnly: tool.annotations?.readOnlyHint === true,
        ...(fieldNames(tool.outputSchema) ? { outputFields: fieldNames(tool.outputSchema)! } : {}),
        destructive: tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint === true,
        agentTool,
        searchable: { name, description, parameterText: parameterText(tool.inputSchema), serverText: `${config.name} ${config.description ?? connection.instructions ?? ""}` },
      });
    }
  }
  return entries;
}

/**
 * What a script learns of the tools it may call: `ALL_TOOLS`, `searchTools()` (BM25, as
 * tool_search ranks), `describeTool()`, `describeNamespace()` (an MCP server: its description,
 * instructions and tool names; `mcp__dev-radius`, `mcp__dev_radius`, `dev-radius` and
 * `dev_radius` all name it).
 */
import type { AnyAgentTool } from "../../agent/tool";
import { rankTools, type SearchableTool } from "../tool-search";
import { scriptIdentifier, toolDeclaration } from "./description";

export interface ScriptNamespace {
  /** `mcp__<server>` with `-` as `_`. */
  name: string;
  server: string;
  description?: string;
  instructions?: string;
}

export interface CallableTool {
  tool: AnyAgentTool;
  /** An MCP tool: a script gets its whole CallToolResult. */
  mcp: boolean;
  namespace?: ScriptNamespace;
  searchable: SearchableTool;
  /** Its prompt guidelines, carried in its declaration (the system prompt has them only for declared tools). */
  guidelines?: readonly string[];
}

const MCP_RESULT = "{ content: unknown[]; structuredContent?: Record<string, unknown>; isError?: boolean }";
const DEFAULT_LIMIT = 8;

export const declarationOf = (c: CallableTool): string => toolDeclaration(c.tool, c.mcp ? MCP_RESULT : "string", c.guidelines);

export const listEntry = (c: CallableTool): { name: string; description: string } => ({ name: scriptIdentifier(c.tool.name), description: declarationOf(c) });

const isNamespace = (namespace: ScriptNamespace, query: string): boolean => {
  const id = scriptIdentifier(query);
  return [namespace.name, namespace.server, `mcp__${namespace.server}`].some((name) => name === query || scriptIdentifier(name) === id);
};

export function findTool(callable: readonly CallableTool[], name: string): CallableTool | undefined {
  return callable.find((c) => c.tool.name === name || scriptIdentifier(c.tool.name) === name);
}

/** Answers searchTools/describeTool/describeNamespace; throws the error the script gets for bad arguments. */
export function discover(kind: "searchTools" | "describeTool" | "describeNamespace", args: unknown, callable: readonly CallableTool[]): unknown {
  const [first, second] = Array.isArray(args) ? (args as unknown[]) : [];
  if (kind === "describeTool") {
    if (typeof first !== "string") throw new Error("describeTool() expects a tool name");
    const found = findTool(callable, first);
    return found ? declarationOf(found) : undefined;
  }
  if (kind === "describeNamespace") {
    if (typeof first !== "string") throw new Error("describeNamespace() expects a namespace name");
    const members = callable.filter((c) => c.namespace && isNamespace(c.namespace, first));
    const namespace = members[0]?.namespace;
    if (!namespace) return undefined;
    return {
      name: namespace.name,
      ...(namespace.description ? { description: namespace.description } : {}),
      ...(namespace.instructions ? { instructions: namespace.instructions } : {}),
      tools: members.map((c) => scriptIdentifier(c.tool.name)),
    };
  }
  if (typeof first !== "string") throw new Error("searchTools() expects a query string");
  const options = (second ?? {}) as { limit?: unknown; namespace?: unknown };
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit <= 0) throw new Error("searchTools() limit must be a positive integer");
  if (options.namespace !== undefined && options.namespace !== null && typeof options.namespace !== "string") throw new Error("searchTools() namespace must be a string");
  const namespace = typeof options.namespace === "string" ? options.namespace : undefined;
  const pool = callable.filter((c) => !namespace || (c.namespace && isNamespace(c.namespace, namespace)));
  const ranked = rankTools(first, pool.map((c) => c.searchable), limit);
  return ranked.map((s) => listEntry(pool.find((c) => c.searchable === s)!));
}

/**
 * How an MCP tool reaches the model (docs/mcp.md "Control tool exposure"), its name, and the
 * `--tools`/`--exclude-tools` patterns that select MCP tools.
 *   direct    declared to the model like a built-in tool
 *   deferred  declared once `tool_search` loaded it
 *   codemode  Pi's default, reached from codemode scripts; this host has no codemode yet, so such
 *             tools are reached the way deferred ones are, through `tool_search`
 *   hidden    registered, unreachable
 */
import { createHash } from "node:crypto";

export type Exposure = "direct" | "deferred" | "codemode" | "hidden";

export function normalizeExposure(value: string | undefined): Exposure | undefined {
  if (value === "codemode-deferred") return "codemode";
  return value === "direct" || value === "deferred" || value === "codemode" || value === "hidden" ? value : undefined;
}

/** `*` matches any characters; everything else is literal. */
export function namePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
}

/** A tool's exposure: its exact name in `toolExposure`, else the first pattern that matches, else the server's. */
export function toolExposure(server: { exposure: Exposure; toolExposure: Record<string, Exposure> }, tool: string): Exposure {
  const exact = Object.hasOwn(server.toolExposure, tool) ? server.toolExposure[tool] : undefined;
  if (exact) return exact;
  for (const [key, exposure] of Object.entries(server.toolExposure)) if (key.includes("*") && namePattern(key).test(tool)) return exposure;
  return server.exposure;
}

/** Provider tool names are at most 64 characters of [A-Za-z0-9_-]. */
const MAX_NAME = 64;

/**
 * `mcp__<server>__<tool>` with every character but [A-Za-z0-9_] as `_`; too long, or taken by
 * another tool (two names that sanitize alike), it ends in `_` and 8 hex digits of a hash.
 */
export function mcpToolName(server: string, tool: string, isTaken: (name: string) => boolean = () => false): string {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
  if (name.length <= MAX_NAME && !isTaken(name)) return name;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** `mcp__<server>` with `-` as `_`: how the system prompt names a server. */
export const mcpNamespace = (server: string): string => `mcp__${server.replace(/-/g, "_")}`;

/**
 * Which MCP tools `--tools`/`--exclude-tools` leave: `--tools` filters MCP tools only once one of
 * its entries starts with `mcp__`; `--exclude-tools` removes every match. `tool_search` is
 * declared when a server needs it, unless `--exclude-tools` names it.
 */
export function mcpToolSelection(tools: readonly string[] | undefined, exclude: readonly string[]): (name: string) => boolean {
  const wanted = (tools ?? []).filter((t) => t.startsWith("mcp__")).map(namePattern);
  const named = new Set(tools ?? []);
  const excluded = exclude.map(namePattern);
  const excludesAll = exclude.includes("mcp__*");
  return (name) => {
    if (excluded.some((p) => p.test(name))) return false;
    // The resource tools count as MCP tools: `--exclude-tools 'mcp__*'` removes them, an mcp__ `--tools` list keeps them only when named.
    if (MCP_RESOURCE_TOOLS.has(name)) return !excludesAll && (wanted.length === 0 || named.has(name));
    return !name.startsWith("mcp__") || wanted.length === 0 || wanted.some((p) => p.test(name));
  };
}

const MCP_RESOURCE_TOOLS: ReadonlySet<string> = new Set(["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"]);

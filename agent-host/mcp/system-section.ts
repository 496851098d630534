/**
 * The `mcp_servers` section of the system prompt (Pi 1.x, docs/mcp.md): the servers whose tools
 * are not declared to the model, how their tools are reached, and one line about each (the
 * configured `description`, else the first line of the server's instructions once connected).
 * The model learns of these servers only here. At most 4096 characters: descriptions shrink to
 * fit, then the last servers are counted instead of listed.
 */
import type { Exposure } from "./exposure";
import { mcpNamespace } from "./exposure";

export const MCP_SERVERS_SECTION = "mcp_servers";
const MAX_SECTION = 4096;
const MAX_SUMMARY = 250;

export interface SectionServer {
  name: string;
  exposures: Exposure[];
  summary: string | undefined;
}

const cut = (text: string, max: number): string => (text.length <= max ? text : max <= 1 ? "" : `${text.slice(0, max - 1).trimEnd()}…`);

export function serversSection(servers: readonly SectionServer[]): string | undefined {
  // This host reaches codemode tools through tool_search too (no codemode yet), so every listed server says tool_search.
  const listed = servers.filter((s) => s.exposures.some((e) => e === "deferred" || e === "codemode")).sort((a, b) => a.name.localeCompare(b.name));
  if (listed.length === 0) return undefined;
  const intro = "MCP servers whose tools are not declared to you. Load the tools of `tool_search` servers with `tool_search`.";
  const heads = listed.map((s) => `- ${mcpNamespace(s.name)} (tool_search)`);
  const omitted = (n: number) => (n > 0 ? [`- … ${n} more server${n === 1 ? "" : "s"}; find their tools with tool_search`] : []);
  const size = (kept: number) => [intro, ...heads.slice(0, kept), ...omitted(listed.length - kept)].join("\n").length;
  let kept = listed.length;
  while (kept > 0 && size(kept) > MAX_SECTION) kept--;
  const each = kept === 0 ? 0 : Math.min(MAX_SUMMARY, Math.floor((MAX_SECTION - size(kept)) / kept) - 2);
  const lines = listed.slice(0, kept).map((s, i) => {
    const summary = each > 0 ? cut(((s.summary ?? "").trim().split("\n", 1)[0] ?? "").trim(), each) : "";
    return summary ? `${heads[i]}: ${summary}` : heads[i];
  });
  return [intro, ...lines, ...omitted(listed.length - kept)].join("\n");
}

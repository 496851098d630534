/**
 * The `mcp_servers` section of the system prompt (Pi 1.x, docs/mcp.md): the servers whose tools
 * are not declared to the model, how their tools are reached (codemode scripts or tool_search),
 * and one line about each (the
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

/**
 * `codemode` says how a server with codemode tools is reached: from codemode scripts when the
 * codemode tool is declared, else through tool_search.
 */
export function serversSection(servers: readonly SectionServer[], codemode = true): string | undefined {
  const listed = servers.filter((s) => s.exposures.some((e) => e === "deferred" || e === "codemode")).sort((a, b) => a.name.localeCompare(b.name));
  if (listed.length === 0) return undefined;
  const reaches = listed.map((s) => (codemode && s.exposures.includes("codemode") ? "codemode" : "tool_search"));
  let intro = "MCP servers whose tools are not declared to you.";
  if (reaches.includes("codemode")) intro += " Call the tools of `codemode` servers from codemode scripts.";
  if (reaches.includes("tool_search")) intro += " Load the tools of `tool_search` servers with `tool_search`.";
  const heads = listed.map((s, i) => `- ${mcpNamespace(s.name)} (${reaches[i]})`);
  const omitted = (n: number) => (n > 0 ? [`- … ${n} more server${n === 1 ? "" : "s"}; find their tools with searchTools()`] : []);
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

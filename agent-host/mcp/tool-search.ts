/**
 * `tool_search`: finds MCP tools that are not declared to the model (deferred, and codemode ones
 * while this host has no codemode) and declares the matches from the next model call on. Ranked
 * with BM25 over each tool's description and parameter names, a match in the tool's name counting
 * more, a match in its server's name or description less.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool } from "../agent/tool";

export const TOOL_SEARCH = "tool_search";
const DEFAULT_LIMIT = 8;

export const toolSearchSchema = Type.Object({
  query: Type.String({ description: "What the tool should do, in a few words, or its name." }),
  limit: Type.Optional(Type.Number({ description: `At most this many tools (default ${DEFAULT_LIMIT}).` })),
});

export interface SearchableTool {
  name: string;
  description: string;
  /** Parameter names and descriptions. */
  parameterText: string;
  /** The server's name and description. */
  serverText: string;
}

const STOP = new Set(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on", "or", "the", "to", "with"]);

export function terms(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOP.has(w))
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

/** The best `limit` tools for the query, best first; an exact name (or its `__` suffix) first of all. */
export function rankTools(query: string, tools: readonly SearchableTool[], limit: number): SearchableTool[] {
  const wanted = new Set(terms(query));
  if (wanted.size === 0) return [];
  const exact = query.trim().toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const docs = tools.map((tool) => {
    const counts = new Map<string, number>();
    const words = terms(`${tool.description} ${tool.parameterText}`);
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    return { tool, counts, length: words.length, name: new Set(terms(tool.name.split("__").slice(2).join(" ") || tool.name)), server: new Set(terms(tool.serverText)) };
  });
  const avg = docs.reduce((s, d) => s + d.length, 0) / (docs.length || 1) || 1;
  const idf = new Map([...wanted].map((t) => {
    const n = docs.filter((d) => d.counts.has(t) || d.name.has(t) || d.server.has(t)).length;
    return [t, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))];
  }));
  const scored = docs.flatMap((d) => {
    let score = 0;
    let covered = 0;
    for (const t of wanted) {
      const c = d.counts.get(t) ?? 0;
      const w = (d.name.has(t) ? 3 : 0) + (d.server.has(t) ? 0.5 : 0) + (c * 2.2) / (c + 1.2 * (0.25 + (0.75 * d.length) / avg));
      if (w > 0) covered++;
      score += (idf.get(t) ?? 0) * w;
    }
    const isExact = d.tool.name.toLowerCase() === exact || d.tool.name.toLowerCase().endsWith(`__${exact}`);
    return score > 0 || isExact ? [{ tool: d.tool, score, covered, isExact }] : [];
  });
  scored.sort((a, b) => Number(b.isExact) - Number(a.isExact) || b.covered - a.covered || b.score - a.score);
  return scored.slice(0, limit).map((s) => s.tool);
}

export interface ToolSearchSource {
  /** Tools tool_search may load: not declared yet. */
  searchable(): SearchableTool[];
  /** Declares these from the next model call on. */
  load(names: string[]): void;
  /** Resolves once every enabled server has connected or failed. */
  settled(): Promise<void>;
}

export function createToolSearchTool(source: ToolSearchSource): AgentTool<typeof toolSearchSchema, { loaded: string[] }> {
  return {
    name: TOOL_SEARCH,
    label: "Tool search",
    description: `Searches tools that are not declared to you yet, such as the tools of MCP servers, and declares the matches for your next call. For MCP tool discovery, always use \`${TOOL_SEARCH}\`.`,
    parameters: toolSearchSchema,
    async execute(_id, params: Static<typeof toolSearchSchema>) {
      if (params.query.trim() === "") throw new Error("query must not be empty");
      const limit = params.limit ?? DEFAULT_LIMIT;
      if (!Number.isInteger(limit) || limit <= 0) throw new Error("limit must be a positive integer");
      await source.settled();
      const found = rankTools(params.query, source.searchable(), limit);
      source.load(found.map((t) => t.name));
      const text = found.length === 0
        ? "No matching tools found."
        : `Loaded ${found.length} tool${found.length === 1 ? "" : "s"}. They are available from your next call:\n${found.map((t) => `- ${t.name}: ${t.description.trim().split(/\r?\n/)[0] ?? ""}`).join("\n")}`;
      return { content: [{ type: "text", text }], details: { loaded: found.map((t) => t.name) } };
    },
  };
}

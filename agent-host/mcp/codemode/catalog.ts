/**
 * The tools codemode's description lists (pi 1.x's `codemode.inlineBudget`): under a
 * `Nested tools:` heading, one `### \`id\`` section per tool (its description, its prompt
 * guidelines, its declaration), grouped by namespace (an MCP server), within a budget of estimated
 * tokens (characters / 4). The rest a script finds with `searchTools()`/`describeTool()`/`ALL_TOOLS`.
 */
import { CODEMODE_DESCRIPTION, inert, scriptIdentifier } from "./description";

/** Pi's default `codemode.inlineBudget`, in estimated tokens. */
export const DEFAULT_INLINE_BUDGET = 3000;
const CHARS_PER_TOKEN = 4;

export interface ListedTool {
  name: string;
  /** The tool's description with its guidelines and declaration (discovery.ts's declarationOf). */
  declaration: string;
  namespace?: { name: string; description?: string };
}

/** The setting as pi reads it: a finite number ≥ 0, else the default. */
export function inlineBudgetOf(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : DEFAULT_INLINE_BUDGET;
}

interface Entry {
  name: string;
  section: string;
  cost: number;
}

interface Group {
  namespace: ListedTool["namespace"];
  entries: Entry[];
}

function section(tool: ListedTool): string {
  const id = scriptIdentifier(tool.name);
  return `${id === tool.name ? `### \`${id}\`` : `### \`${id}\` (\`${tool.name}\`)`}\n${tool.declaration.trim()}`;
}

/**
 * Pi's choice of what fits: each round, every group (tools without a namespace first, then the
 * namespaces by name) places its cheapest remaining tool; a group whose next tool does not fit drops
 * out while the others go on, so each namespace shows before any is complete.
 */
function fitting(groups: readonly Group[], budget: number): Set<string> {
  const queues = groups.map((g) => [...g.entries].sort((a, b) => a.cost - b.cost)).filter((q) => q.length > 0);
  const shown = new Set<string>();
  let remaining = budget;
  let active = queues;
  while (active.length > 0) {
    active = active.filter((queue) => {
      const next = queue[0]!;
      if (next.cost > remaining) return false;
      remaining -= next.cost;
      shown.add(next.name);
      queue.shift();
      return queue.length > 0;
    });
  }
  return shown;
}

/** Codemode's description listing `tools` within `budget` estimated tokens. */
export function catalogDescription(tools: readonly ListedTool[], budget: number): string {
  if (tools.length === 0) return CODEMODE_DESCRIPTION;
  const groups = new Map<string, Group>([["", { namespace: undefined, entries: [] }]]);
  for (const tool of tools) {
    const key = tool.namespace ? `ns:${tool.namespace.name}` : "";
    const group = groups.get(key) ?? { namespace: tool.namespace, entries: [] };
    groups.set(key, group);
    const text = section(tool);
    group.entries.push({ name: tool.name, section: text, cost: Math.ceil(text.length / CHARS_PER_TOKEN) });
  }
  const ordered = [...groups.values()].sort((a, b) => (a.namespace === undefined ? -1 : b.namespace === undefined ? 1 : a.namespace.name.localeCompare(b.namespace.name)));
  const shown = fitting(ordered, budget);
  const out = ["Nested tools:"];
  for (const { namespace, entries } of ordered) {
    const visible = entries.filter((e) => shown.has(e.name));
    if (namespace) {
      const listing = visible.length === entries.length ? "" : visible.length === 0 ? " (tools not listed)" : " (some tools not listed)";
      const about = namespace.description?.trim();
      out.push(`## ${namespace.name}${listing}${about ? `\n${inert(about)}` : ""}`);
    }
    for (const entry of visible) out.push(entry.section);
  }
  return `${CODEMODE_DESCRIPTION}\n\n${out.join("\n\n")}`;
}

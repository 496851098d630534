/**
 * How attached context reaches the model: after the user's text, one block per mention,
 *
 *   <context type="file" path="src/a.ts" lines="10-20">
 *   …the lines…
 *   </context>
 *
 * within a size budget (a block cut short says so). The chat view shows the user's text and
 * folds these blocks (webview/items/user-context.ts reads the same shape).
 */
export interface LineRange {
  start: number;
  end: number;
}

export interface ContextBlock {
  attrs: Record<string, string>;
  body: string;
}

export const contextLimits = { blockChars: 50_000, totalChars: 200_000, problems: 200, folderEntries: 500 };

/** Lines `start`-`end` (1-based, inclusive, clamped to the text) of `text`. */
export function sliceLines(text: string, lines: LineRange): { body: string; lines: LineRange; total: number } | { error: string; total: number } {
  const all = text.split(/\r?\n/);
  const total = text.endsWith("\n") ? all.length - 1 : all.length;
  if (lines.start > total) return { error: `the file has ${total} line${total === 1 ? "" : "s"}`, total };
  const end = Math.min(lines.end, total);
  return { body: all.slice(lines.start - 1, end).join("\n"), lines: { start: lines.start, end }, total };
}

/** A file's block: all of it, or the given lines. */
export function fileBlock(path: string, text: string, lines?: LineRange): ContextBlock {
  if (!lines) return { attrs: { type: "file", path }, body: text.replace(/\r?\n$/, "") };
  const slice = sliceLines(text, lines);
  if ("error" in slice) return { attrs: { type: "file", path, lines: `${lines.start}-${lines.end}`, error: slice.error }, body: "" };
  return { attrs: { type: "file", path, lines: `${slice.lines.start}-${slice.lines.end}` }, body: slice.body };
}

export interface Problem {
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  severity: "error" | "warning" | "info" | "hint";
  message: string;
  source?: string;
}

const severityOrder = { error: 0, warning: 1, info: 2, hint: 3 };

/** `path:line:col severity: message [source]`, errors first, at most `limit`. */
export function problemsBlock(problems: readonly Problem[], limit = contextLimits.problems): ContextBlock {
  const sorted = [...problems].sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  const lines = sorted.slice(0, limit).map((p) => `${p.path}:${p.line}:${p.column} ${p.severity}: ${p.message.replace(/\s*\n\s*/g, " ")}${p.source ? ` [${p.source}]` : ""}`);
  if (sorted.length > limit) lines.push(`[${sorted.length - limit} more not shown]`);
  return { attrs: { type: "problems" }, body: lines.length ? lines.join("\n") : "(no problems)" };
}

/** A folder's entries (paths relative to it; folders end with "/"), at most `limit`. */
export function folderBlock(path: string, entries: readonly string[], limit = contextLimits.folderEntries): ContextBlock {
  const shown = [...entries].sort().slice(0, limit);
  if (entries.length > limit) shown.push(`[${entries.length - limit} more not shown]`);
  return { attrs: { type: "folder", path: `${path}/` }, body: shown.length ? shown.join("\n") : "(empty)" };
}

/** The files of the agent's the user undid (all or part of its change) since its last message. */
export function undoneBlock(paths: readonly string[]): ContextBlock {
  return {
    attrs: { type: "undone" },
    body: `The user undid your changes (all or part) to these files after you made them; read them again before you build on them:\n${paths.join("\n")}`,
  };
}

/** Cuts blocks to the per-block and total budgets, saying where and how much was left out. */
export function capBlocks(blocks: readonly ContextBlock[], limits = contextLimits): ContextBlock[] {
  let budget = limits.totalChars;
  return blocks.map((block) => {
    const max = Math.min(limits.blockChars, budget);
    if (max < 200 && block.body.length > max) {
      budget = 0;
      return { attrs: { ...block.attrs, omitted: "the attached context reached its size limit" }, body: "" };
    }
    let body = block.body;
    const attrs = { ...block.attrs };
    if (body.length > max) {
      const cut = body.lastIndexOf("\n", max - 120);
      const kept = body.slice(0, cut > 0 ? cut : max - 120);
      const shown = kept.split("\n").length;
      const more = body.split("\n").length - shown;
      body = `${kept}\n[truncated: ${more > 0 ? `${more} more line${more === 1 ? "" : "s"}` : "the rest"} not shown; read the file for them]`;
      attrs.truncated = "true";
    }
    budget -= body.length;
    return { attrs, body };
  });
}

const escapeAttr = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function renderBlock(block: ContextBlock): string {
  const attrs = Object.entries(block.attrs)
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join("");
  return block.body ? `<context${attrs}>\n${block.body}\n</context>` : `<context${attrs} />`;
}

/** The message the model gets: the user's text, then the (capped) blocks. */
export function withContext(text: string, blocks: readonly ContextBlock[]): string {
  if (blocks.length === 0) return text;
  return `${text}\n\n${capBlocks(blocks).map(renderBlock).join("\n\n")}`;
}

/** The user's own words of a message sent with context (for putting it back into the input box). */
export function withoutContext(message: string): string {
  const at = message.indexOf('\n\n<context type="');
  return at >= 0 && /(<\/context>|\/>)\s*$/.test(message) ? message.slice(0, at) : message;
}

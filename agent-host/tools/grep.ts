/**
 * grep: matching lines as `path:line: text` (context lines as `path-line- text`), relative to the
 * searched directory, at most `limit` matches and 50KB, long lines cut to 500 characters.
 * Uses ripgrep when there is one (the `rgPath` option, else `rg` on PATH), else a Node search in a
 * worker thread (off-thread-search.ts: the model's regex may backtrack for ever).
 */
import path from "node:path";
import { Type } from "@sinclair/typebox";
import type { AgentTool } from "../agent/tool";
import { searchWithNode, searchWithRipgrep, type GrepMatch, type GrepQuery } from "./grep-search";
import { grepOffThread } from "./off-thread-search";
import { abortable, isDirectoryAt, localWalkIo, withOpenedRoot, type OpenedCheck, type WalkIo } from "./io";
import type { HiddenPaths } from "./hidden-paths";
import { guardedPath, openedCheck, type GuardedOptions } from "./paths";
import { programLocator } from "./process";
import { DEFAULT_MAX_BYTES, formatSize, GREP_MAX_LINE_LENGTH, truncateHead, truncateLine, type TruncationResult } from "./truncate";

export const grepSchema = Type.Object({
  pattern: Type.String({ description: "Search pattern (regex or literal string)" }),
  path: Type.Optional(Type.String({ description: "Directory or file to search (default: current directory)" })),
  glob: Type.Optional(Type.String({ description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" })),
  ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default: false)" })),
  literal: Type.Optional(Type.Boolean({ description: "Treat pattern as literal string instead of regex (default: false)" })),
  context: Type.Optional(Type.Number({ description: "Number of lines to show before and after each match (default: 0)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

export interface GrepToolDetails {
  truncation?: TruncationResult;
  matchLimitReached?: number;
  linesTruncated?: boolean;
}

export interface GrepToolOptions extends GuardedOptions {
  /** ripgrep binary; `null` never uses one (Node search); default: `rg` on `searchPath`. */
  rgPath?: string | null;
  /** Where to look for `rg` (PATH syntax; default: this process's PATH). */
  searchPath?: string;
  /** Files for the Node search and for context lines; given, the Node search runs on this thread (tests), else in a worker. */
  io?: WalkIo;
  /** How long the Node search in its worker may run (off-thread-search.ts); tests shorten it. */
  searchDeadlineMs?: number;
  /** What a sandbox hides from commands: left out of the results. */
  hidden?: HiddenPaths;
}

const DEFAULT_LIMIT = 100;

export function createGrepTool(cwd: string, options: GrepToolOptions = {}): AgentTool<typeof grepSchema, GrepToolDetails | undefined> {
  const io = options.io ?? localWalkIo;
  const ripgrep = programLocator(options.rgPath, ["rg"], options.searchPath);
  const nodeSearch = (query: GrepQuery) => (options.io ? searchWithNode(io, query) : grepOffThread(query, options.searchDeadlineMs));
  return {
    name: "grep",
    label: "grep",
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
    parameters: grepSchema,
    execute: (_id, params, signal) =>
      abortable(signal, async () => {
        const searchPath = guardedPath(params.path || ".", cwd, options);
        const isDirectory = await isDirectoryAt(io, searchPath);
        const context = params.context && params.context > 0 ? Math.floor(params.context) : 0;
        const limit = Math.max(1, params.limit ?? DEFAULT_LIMIT);
        const query = { ...params, searchPath, isDirectory, cwd, limit, signal };
        const opened = openedCheck(options, params.path || ".");
        const rgPath = await ripgrep();
        // ripgrep searches the folder or file judged, opened (a link flipped after the check leads elsewhere); what lies below it is judged on that real path.
        let realRoot: string | undefined;
        const judged = (real: string) => {
          opened?.(real);
          realRoot = real;
        };
        const found = rgPath ? await withOpenedRoot(searchPath, isDirectory, judged, (fd) => searchWithRipgrep(rgPath, query, fd)) : await nodeSearch(query);
        const hidden = options.hidden?.below(realRoot ?? searchPath);
        const matches = hidden ? found.matches.filter((m) => !hidden(path.relative(searchPath, m.filePath))) : found.matches;
        const { limitReached } = found;
        if (matches.length === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };
        return format(matches, { io, opened, searchPath, isDirectory, context, limit, limitReached });
      }),
  };
}

interface FormatOptions {
  io: WalkIo;
  /** Judges each file read again for context lines, on what was really opened (it may be a link by now). */
  opened: OpenedCheck | undefined;
  searchPath: string;
  isDirectory: boolean;
  context: number;
  limit: number;
  limitReached: boolean;
}

async function format(matches: GrepMatch[], o: FormatOptions) {
  const shownPath = (filePath: string) => {
    if (o.isDirectory) {
      const rel = path.relative(o.searchPath, filePath);
      if (rel && !rel.startsWith("..")) return rel.split(path.sep).join("/");
    }
    return path.basename(filePath);
  };
  const files = new Map<string, string[]>();
  const linesOf = async (filePath: string) => {
    let lines = files.get(filePath);
    if (!lines) {
      try {
        lines = (await o.io.readFile(filePath, o.opened)).toString("utf-8").replace(/\r\n?/g, "\n").split("\n");
      } catch {
        lines = [];
      }
      files.set(filePath, lines);
    }
    return lines;
  };

  let linesTruncated = false;
  const cut = (text: string) => {
    const result = truncateLine(text.replace(/\r/g, ""));
    if (result.wasTruncated) linesTruncated = true;
    return result.text;
  };
  const out: string[] = [];
  for (const m of matches) {
    const shown = shownPath(m.filePath);
    if (o.context === 0 && m.lineText !== undefined) {
      out.push(`${shown}:${m.lineNumber}: ${cut(m.lineText)}`);
      continue;
    }
    const lines = await linesOf(m.filePath);
    if (lines.length === 0) {
      out.push(`${shown}:${m.lineNumber}: (unable to read file)`);
      continue;
    }
    const first = Math.max(1, m.lineNumber - o.context);
    const last = Math.min(lines.length, m.lineNumber + o.context);
    for (let n = first; n <= last; n++) {
      const text = cut(lines[n - 1] ?? "");
      out.push(n === m.lineNumber ? `${shown}:${n}: ${text}` : `${shown}-${n}- ${text}`);
    }
  }

  // The match limit already bounds the rows; only the byte limit applies here.
  const truncation = truncateHead(out.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const details: GrepToolDetails = {};
  const notices: string[] = [];
  if (o.limitReached) {
    notices.push(`${o.limit} matches limit reached. Use limit=${o.limit * 2} for more, or refine pattern`);
    details.matchLimitReached = o.limit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (linesTruncated) {
    notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  const text = notices.length ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return { content: [{ type: "text" as const, text }], details: Object.keys(details).length ? details : undefined };
}

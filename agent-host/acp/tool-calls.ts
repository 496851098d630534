/**
 * Our tool calls as ACP tool calls: the kind, a title, the locations a client can follow, the
 * whole input (rawInput), and the result as content: text, and `diff`s for write and edit.
 */
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "./sdk";

type Args = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const absolute = (cwd: string, path: string): string => (isAbsolute(path) ? path : resolve(cwd, path));

const KINDS: Record<string, ToolKind> = {
  read: "read", write: "edit", edit: "edit", bash: "execute", grep: "search", find: "search", ls: "search", todo: "think",
  tool_search: "search",
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? (name.startsWith("mcp__") ? "other" : "other");
}

/** One line a client shows for the call: the command, or the tool and its path. */
export function toolTitle(name: string, args: Args): string {
  const command = str(args.command);
  if (name === "bash" && command !== undefined) return command.replace(/\s*\n\s*/g, " ⏎ ");
  const path = str(args.path);
  if (path !== undefined) return `${name} ${path}`;
  const pattern = str(args.pattern);
  return pattern !== undefined ? `${name} ${pattern}` : name;
}

export function toolLocations(name: string, args: Args, cwd: string): ToolCallLocation[] {
  const path = str(args.path);
  if (path === undefined || name === "bash") return [];
  const line = typeof args.offset === "number" && name === "read" ? { line: args.offset } : {};
  return [{ path: absolute(cwd, path), ...line }];
}

/** The diffs a write or edit call makes: a write the whole file (before: `oldText`, null for a new file), an edit each replacement. */
export function toolDiffs(name: string, args: Args, cwd: string, oldText: string | null | undefined): ToolCallContent[] {
  const path = str(args.path);
  if (path === undefined) return [];
  const abs = absolute(cwd, path);
  if (name === "write" && typeof args.content === "string") return [{ type: "diff", path: abs, oldText: oldText ?? null, newText: args.content }];
  if (name === "edit" && Array.isArray(args.edits)) {
    return (args.edits as unknown[]).flatMap((edit): ToolCallContent[] => {
      const e = edit as Args;
      return typeof e.oldText === "string" && typeof e.newText === "string" ? [{ type: "diff", path: abs, oldText: e.oldText, newText: e.newText }] : [];
    });
  }
  return [];
}

/** A tool result's text (and images) as ACP content. */
export function resultContent(result: unknown): ToolCallContent[] {
  const content = (result as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((part): ToolCallContent[] => {
    const p = part as Args;
    if (p.type === "text" && typeof p.text === "string") return [{ type: "content", content: { type: "text", text: p.text } }];
    if (p.type === "image" && typeof p.data === "string" && typeof p.mimeType === "string") return [{ type: "content", content: { type: "image", data: p.data, mimeType: p.mimeType } }];
    return [];
  });
}

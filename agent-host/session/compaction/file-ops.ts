import type { AgentMessage } from "../../../shared/protocol";

/** Files the summarized part of a session touched, by the built-in tools' `path` argument. */
export interface FileOps {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

/** What a default compaction keeps in `details` (and carries into the next one). */
export interface CompactionDetails {
  readFiles: string[];
  modifiedFiles: string[];
}

export function emptyFileOps(): FileOps {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Adds the files named by the read/write/edit tool calls of an assistant message. */
export function collectFileOps(message: AgentMessage, ops: FileOps): void {
  if (message.role !== "assistant") return;
  for (const block of message.content) {
    if (block.type !== "toolCall") continue;
    const path = (block.arguments as { path?: unknown } | undefined)?.path;
    if (typeof path !== "string" || !path) continue;
    if (block.name === "read") ops.read.add(path);
    else if (block.name === "write") ops.written.add(path);
    else if (block.name === "edit") ops.edited.add(path);
  }
}

/** Adds the lists an earlier default compaction recorded (extension-made ones have their own `details`). */
export function carryFileOps(details: unknown, ops: FileOps): void {
  const d = (details ?? {}) as { readFiles?: unknown; modifiedFiles?: unknown };
  if (Array.isArray(d.readFiles)) for (const f of d.readFiles) if (typeof f === "string") ops.read.add(f);
  if (Array.isArray(d.modifiedFiles)) for (const f of d.modifiedFiles) if (typeof f === "string") ops.edited.add(f);
}

/** Sorted lists: files only read, and files written or edited (a file in both counts as modified). */
export function fileLists(ops: FileOps): CompactionDetails {
  const modified = new Set([...ops.edited, ...ops.written]);
  return {
    readFiles: [...ops.read].filter((f) => !modified.has(f)).sort(),
    modifiedFiles: [...modified].sort(),
  };
}

/** The lists as the tagged blocks that end a summary (nothing when both are empty). */
export function formatFileLists({ readFiles, modifiedFiles }: CompactionDetails): string {
  const blocks: string[] = [];
  if (readFiles.length) blocks.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length) blocks.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  return blocks.length ? `\n\n${blocks.join("\n\n")}` : "";
}

/** A summary without the file-list blocks at its end (they are rebuilt from `details` each time). */
export function stripFileLists(summary: string): string {
  return summary.replace(/(?:\s*<(read-files|modified-files)>[^<]*<\/\1>)+\s*$/, "");
}

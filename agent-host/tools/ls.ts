/** ls: a directory's entries, dotfiles included, sorted case-insensitively, directories with `/`. */
import path from "node:path";
import { Type } from "@sinclair/typebox";
import type { AgentTool } from "../agent/tool";
import { abortable, abortError, localListIo, type ListIo } from "./io";
import { guardedPath, openedCheck, type GuardedOptions } from "./paths";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead, type TruncationResult } from "./truncate";

export const lsSchema = Type.Object({
  path: Type.Optional(Type.String({ description: "Directory to list (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of entries to return (default: 500)" })),
});

export interface LsToolDetails {
  truncation?: TruncationResult;
  entryLimitReached?: number;
}

export interface LsToolOptions extends GuardedOptions {
  io?: ListIo;
}

const DEFAULT_LIMIT = 500;

export function createLsTool(cwd: string, options: LsToolOptions = {}): AgentTool<typeof lsSchema, LsToolDetails | undefined> {
  const io = options.io ?? localListIo;
  return {
    name: "ls",
    label: "ls",
    description: `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to ${DEFAULT_LIMIT} entries or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    parameters: lsSchema,
    execute: (_id, params, signal) =>
      abortable(signal, async () => {
        const dir = guardedPath(params.path || ".", cwd, options);
        const limit = params.limit ?? DEFAULT_LIMIT;
        if (!(await io.exists(dir))) throw new Error(`Path not found: ${dir}`);
        if (!(await io.stat(dir)).isDirectory()) throw new Error(`Not a directory: ${dir}`);
        let names: string[];
        try {
          names = await io.readdir(dir, openedCheck(options, params.path || "."));
        } catch (error) {
          throw new Error(`Cannot read directory: ${(error as Error).message}`);
        }
        names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

        const entries: string[] = [];
        let limitReached = false;
        for (const name of names) {
          if (entries.length >= limit) {
            limitReached = true;
            break;
          }
          if (signal.aborted) throw abortError();
          try {
            entries.push((await io.stat(path.join(dir, name))).isDirectory() ? `${name}/` : name);
          } catch {
            // cannot stat (e.g. a dangling symlink): left out, as pi does
          }
        }
        if (entries.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };

        // The entry limit already bounds the rows; only the byte limit applies here.
        const truncation = truncateHead(entries.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
        const details: LsToolDetails = {};
        const notices: string[] = [];
        if (limitReached) {
          notices.push(`${limit} entries limit reached. Use limit=${limit * 2} for more`);
          details.entryLimitReached = limit;
        }
        if (truncation.truncated) {
          notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
          details.truncation = truncation;
        }
        const text = notices.length ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
        return { content: [{ type: "text", text }], details: Object.keys(details).length ? details : undefined };
      }),
  };
}

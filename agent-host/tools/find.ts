/**
 * find: files and directories (with a trailing `/`) matching a glob, relative to the searched
 * directory, honouring ignore files. Uses fd when there is one (the `fdPath` option, else `fd` or
 * `fdfind` on PATH), with pi's arguments; otherwise a Node walk with fd's matching rules: a
 * pattern without `/` matches the name, one with `/` matches the end of the full path. The walk
 * runs in a worker thread (off-thread-search.ts): the model's glob and the repository's ignore rules may
 * backtrack for ever.
 */
import path from "node:path";
import { Type } from "@sinclair/typebox";
import type { AgentTool } from "../agent/tool";
import { globRegExp } from "./glob";
import { abortable, abortError, isDirectoryAt, localWalkIo, withOpenedRoot, type WalkIo } from "./io";
import type { HiddenPaths } from "./hidden-paths";
import { guardedPath, openedCheck, toPosix, type GuardedOptions } from "./paths";
import { programLocator } from "./process";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead, type TruncationResult } from "./truncate";
import { walk } from "./walk";
import { childProcess, readline } from "./lazy-node";
import { findOffThread } from "./off-thread-search";

export const findSchema = Type.Object({
  pattern: Type.String({ description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'" }),
  path: Type.Optional(Type.String({ description: "Directory to search in (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
});

export interface FindToolDetails {
  truncation?: TruncationResult;
  resultLimitReached?: number;
}

export interface FindToolOptions extends GuardedOptions {
  /** fd binary; `null` never uses one (Node walk); default: `fd`/`fdfind` on `searchPath`. */
  fdPath?: string | null;
  /** Where to look for fd (PATH syntax; default: this process's PATH). */
  searchPath?: string;
  /** Files for the walk; given, the Node walk runs on this thread (tests), else in a worker. */
  io?: WalkIo;
  /** How long the Node walk in its worker may run (off-thread-search.ts); tests shorten it. */
  searchDeadlineMs?: number;
  /** What a sandbox hides from commands: left out of the results. */
  hidden?: HiddenPaths;
}

const DEFAULT_LIMIT = 1000;

export function createFindTool(cwd: string, options: FindToolOptions = {}): AgentTool<typeof findSchema, FindToolDetails | undefined> {
  const io = options.io ?? localWalkIo;
  const fd = programLocator(options.fdPath, ["fd", "fdfind"], options.searchPath);
  return {
    name: "find",
    label: "find",
    description: `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} results or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    parameters: findSchema,
    execute: (_id, { pattern, path: dir, limit }, signal) =>
      abortable(signal, async () => {
        const searchPath = guardedPath(dir || ".", cwd, options);
        const max = Math.max(1, limit ?? DEFAULT_LIMIT);
        if (!(await isDirectoryAt(io, searchPath))) throw new Error(`Not a directory: ${searchPath}`);
        const fdPath = await fd();
        const opened = openedCheck(options, dir || ".");
        // The Node walk reads the folder judged, opened (a link flipped after the check leads elsewhere); what lies below it is judged on that real path.
        let realRoot: string | undefined;
        const judged = (real: string) => {
          opened?.(real);
          realRoot = real;
        };
        const walkOpened = (fd: number | undefined) => {
          const through = fd === undefined ? undefined : `/proc/${process.pid}/fd/${fd}`;
          return options.io ? walkFind(io, pattern, searchPath, max, signal, through) : findOffThread({ pattern, root: searchPath, max, through }, signal, options.searchDeadlineMs);
        };
        // fd is given the path by name (not yet pinned like the walk: docs/trust-model.md).
        const found = fdPath ? await runFd(fdPath, pattern, searchPath, max, io, signal) : await withOpenedRoot(searchPath, true, judged, walkOpened);
        const hidden = options.hidden?.below(realRoot ?? searchPath);
        return format(hidden ? found.filter((result) => !hidden(result)) : found, max);
      }),
  };
}

/** fd's reading of the pattern: the name, or with a `/` the full path (as if it began with a globstar). */
function matcher(pattern: string): (absPath: string) => boolean {
  if (!pattern.includes("/")) {
    const name = globRegExp(pattern);
    return (absPath) => name.test(path.basename(absPath));
  }
  const full = pattern.startsWith("/") || pattern.startsWith("**/") || pattern === "**" ? pattern : `**/${pattern}`;
  const regex = globRegExp(full);
  return (absPath) => regex.test(toPosix(absPath));
}

/** The Node walk, on the calling thread: the tool runs it in a worker (off-thread-search.ts), where globs and ignore rules may take their time. */
export async function walkFind(io: WalkIo, pattern: string, root: string, max: number, signal: AbortSignal, through?: string): Promise<string[]> {
  const matches = matcher(pattern);
  const found: string[] = [];
  await walk(root, {
    io,
    signal,
    ...(through === undefined ? {} : { through }),
    gitignore: "always",
    extraIgnoreFiles: [".ignore", ".fdignore"],
    includeDirs: true,
    includeSymlinks: true,
    visit: (entry) => {
      if (!matches(entry.absPath)) return true;
      found.push(entry.kind === "dir" ? `${entry.relPath}/` : entry.relPath);
      return found.length < max;
    },
  });
  return found;
}

async function insideGitRepo(io: WalkIo, start: string): Promise<boolean> {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (await io.exists(path.join(dir, ".git"))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

/** Runs fd as pi does and returns its results relative to the search path (directories keep their `/`). */
async function runFd(fdPath: string, pattern: string, searchPath: string, max: number, io: WalkIo, signal: AbortSignal): Promise<string[]> {
  const args = ["--glob", "--color=never", "--hidden"];
  // Outside a repository fd ignores .gitignore unless told otherwise; inside, its git-aware default is right.
  if (!(await insideGitRepo(io, searchPath))) args.push("--no-require-git");
  args.push("--max-results", String(max));
  let effective = pattern;
  if (pattern.includes("/")) {
    args.push("--full-path");
    if (!pattern.startsWith("/") && !pattern.startsWith("**/") && pattern !== "**") effective = `**/${pattern}`;
  }
  args.push("--", effective, searchPath);
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const child = childProcess().spawn(fdPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let stderr = "";
    const onAbort = () => child.kill();
    signal.addEventListener("abort", onAbort, { once: true });
    readline().createInterface({ input: child.stdout }).on("line", (line) => {
      const clean = line.replace(/\r$/, "").trim();
      if (clean) lines.push(clean);
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => reject(new Error(`Failed to run fd: ${error.message}`)));
    child.on("close", (code) => {
      signal.removeEventListener("abort", onAbort);
      if (signal.aborted) return reject(abortError());
      if (code !== 0 && lines.length === 0) return reject(new Error(stderr.trim() || `fd exited with code ${code}`));
      resolve(
        lines.map((line) => {
          const dirMark = line.endsWith("/") || line.endsWith(path.sep);
          const rel = toPosix(path.isAbsolute(line) ? path.relative(searchPath, line) : line);
          return dirMark && !rel.endsWith("/") ? `${rel}/` : rel;
        }),
      );
    });
  });
}

function format(found: string[], max: number) {
  if (found.length === 0) return { content: [{ type: "text" as const, text: "No files found matching pattern" }], details: undefined };
  const truncation = truncateHead(found.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const details: FindToolDetails = {};
  const notices: string[] = [];
  if (found.length >= max) {
    notices.push(`${max} results limit reached. Use limit=${max * 2} for more, or refine pattern`);
    details.resultLimitReached = max;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  const text = notices.length ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return { content: [{ type: "text" as const, text }], details: Object.keys(details).length ? details : undefined };
}

/**
 * The two ways grep finds matching lines: ripgrep (as pi runs it: `--json --hidden`, its own
 * ignore rules) or, without it, a walk in Node with the same defaults (ignore files, dotfiles
 * included, binary files skipped, `--glob` semantics). Both give the same match list; grep.ts
 * formats it.
 */
import { join } from "node:path";
import { abortError, type WalkIo } from "./io";
import { pathGlob } from "./glob";
import { toPosixRelative } from "./paths";
import { walk } from "./walk";
import { childProcess, readline } from "./lazy-node";

export interface GrepMatch {
  filePath: string;
  lineNumber: number;
  /** The matching line without its line ending (ripgrep always sends it). */
  lineText?: string;
}

export interface GrepQuery {
  pattern: string;
  /** Absolute file or directory. */
  searchPath: string;
  isDirectory: boolean;
  /** The tool's cwd: ripgrep runs there, and path globs are relative to it (as in pi). */
  cwd: string;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  limit: number;
  signal: AbortSignal;
}

export interface GrepHits {
  matches: GrepMatch[];
  limitReached: boolean;
}

/** Where ripgrep runs and what it searches: the search path by name (as pi), or the folder or file the host opened. */
interface RipgrepTarget {
  cwd: string;
  path: string;
  glob: string | undefined;
  /** The path a match names, as the tool's results name it. */
  shown(path: string): string;
  /** A path glob the host applies instead of ripgrep (to the shown path). */
  accept(path: string): boolean;
}

/**
 * With `opened` (the descriptor of the search path, opened and judged by the host: Linux), ripgrep
 * searches what was judged, not what the name leads to by the time it opens it (a link a job flips
 * to ~/.ssh, which ripgrep follows as its root): a folder as its working directory (`.`, named
 * through /proc; its parents' ignore files still apply, ripgrep finds them from its real path), a
 * file through /proc too. Globs are relative to ripgrep's working directory, so a path glob (one with a
 * `/`, relative to the tool's cwd) is applied here when the folder is not that cwd.
 */
function ripgrepTarget(q: GrepQuery, opened: number | undefined): RipgrepTarget {
  const byName = { cwd: q.cwd, path: q.searchPath, glob: q.glob, shown: (p: string) => p, accept: () => true };
  if (opened === undefined) return byName;
  const descriptor = `/proc/${process.pid}/fd/${opened}`;
  if (!q.isDirectory) return { ...byName, path: descriptor, shown: () => q.searchPath };
  const here = q.glob !== undefined && q.glob.includes("/") && q.searchPath !== q.cwd;
  return { cwd: descriptor, path: ".", glob: here ? undefined : q.glob, shown: (p) => join(q.searchPath, p), accept: here ? globFilter(q.glob, q.cwd) : () => true };
}

export function searchWithRipgrep(rgPath: string, q: GrepQuery, opened?: number): Promise<GrepHits> {
  return new Promise((resolve, reject) => {
    if (q.signal.aborted) return reject(abortError());
    const target = ripgrepTarget(q, opened);
    // No messages about ignore files: ripgrep prints each line of one it cannot parse, and an
    // `.ignore` may be a link the model made to a secret (the error reached the model whole).
    const args = ["--json", "--line-number", "--color=never", "--hidden", "--no-ignore-messages"];
    if (q.ignoreCase) args.push("--ignore-case");
    if (q.literal) args.push("--fixed-strings");
    if (target.glob) args.push("--glob", target.glob);
    args.push("--", q.pattern, target.path);
    const child = childProcess().spawn(rgPath, args, { cwd: target.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const lines = readline().createInterface({ input: child.stdout });
    const matches: GrepMatch[] = [];
    let stderr = "";
    let limitReached = false;
    let aborted = false;
    const stop = () => {
      if (child.exitCode === null && !child.killed) child.kill();
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    q.signal.addEventListener("abort", onAbort, { once: true });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    lines.on("line", (line) => {
      if (limitReached || !line.startsWith("{")) return;
      let event: { type?: string; data?: { path?: { text?: string }; line_number?: number; lines?: { text?: string } } };
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      if (event.type !== "match") return;
      const named = event.data?.path?.text;
      const lineNumber = event.data?.line_number;
      if (!named || typeof lineNumber !== "number") return;
      const filePath = target.shown(named);
      if (!target.accept(filePath)) return;
      const text = event.data?.lines?.text;
      matches.push({ filePath, lineNumber, lineText: text?.replace(/\r?\n$/, "") });
      if (matches.length >= q.limit) {
        limitReached = true;
        stop();
      }
    });
    child.on("error", (error) => {
      q.signal.removeEventListener("abort", onAbort);
      reject(new Error(`Failed to run ripgrep: ${error.message}`));
    });
    child.on("close", (code) => {
      lines.close();
      q.signal.removeEventListener("abort", onAbort);
      if (aborted) return reject(abortError());
      if (!limitReached && code !== 0 && code !== 1) return reject(new Error(stderr.trim() || `ripgrep exited with code ${code}`));
      resolve({ matches, limitReached });
    });
  });
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** The pattern as a JavaScript RegExp (a leading `(?i)`, common in ripgrep patterns, becomes the flag). */
export function compilePattern(pattern: string, ignoreCase?: boolean, literal?: boolean): RegExp {
  let source = literal ? escapeRegex(pattern) : pattern;
  let flags = ignoreCase ? "i" : "";
  if (!literal && source.startsWith("(?i)")) {
    source = source.slice(4);
    flags = "i";
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new Error(`regex parse error: ${(error as Error).message}`);
  }
}

/** Does the glob filter let this file through (a `!glob` also excludes whole directories)? */
function globFilter(glob: string | undefined, cwd: string): (absPath: string) => boolean {
  if (!glob) return () => true;
  const g = pathGlob(glob);
  return (absPath) => {
    const rel = toPosixRelative(cwd, absPath);
    if (!g.negated) return g.matches(rel);
    const parts = rel.split("/");
    return !parts.some((_, i) => g.matches(parts.slice(0, i + 1).join("/")));
  };
}

/** The Node search, on the calling thread: the tool runs it in a worker (off-thread-search.ts), where the regex may take its time. */
export async function searchWithNode(io: WalkIo, q: GrepQuery): Promise<GrepHits> {
  const regex = compilePattern(q.pattern, q.ignoreCase, q.literal);
  const accept = globFilter(q.glob, q.cwd);
  const matches: GrepMatch[] = [];
  let limitReached = false;

  const searchFile = async (absPath: string): Promise<boolean> => {
    if (q.signal.aborted) throw abortError();
    let bytes: Buffer;
    try {
      bytes = await io.readFile(absPath);
    } catch {
      return true; // unreadable: skipped, as ripgrep does (it only warns)
    }
    if (bytes.includes(0)) return true; // binary
    const lines = bytes.toString("utf-8").split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].replace(/\r$/, "");
      if (!regex.test(line)) continue;
      matches.push({ filePath: absPath, lineNumber: i + 1, lineText: line });
      if (matches.length >= q.limit) {
        limitReached = true;
        return false;
      }
    }
    return true;
  };

  if (!q.isDirectory) {
    if (accept(q.searchPath)) await searchFile(q.searchPath);
  } else {
    await walk(q.searchPath, {
      io,
      signal: q.signal,
      gitignore: "in-repo",
      extraIgnoreFiles: [".ignore", ".rgignore"],
      includeDirs: false,
      includeSymlinks: false,
      visit: (entry) => (accept(entry.absPath) ? searchFile(entry.absPath) : true),
    });
  }
  return { matches, limitReached };
}

/**
 * Context files (AGENTS.md and friends) as pi 0.87.1 finds them: first the agent dir's own,
 * then one per directory from the filesystem root down to the working directory. In each
 * directory the first existing regular file of CONTEXT_FILE_NAMES wins (`AGENTS.override.md`
 * over `AGENTS.md` over `CLAUDE.md`). A file seen twice (agent dir inside cwd's ancestry) is
 * kept once. In a linked git worktree nested inside its main checkout, the main checkout's
 * file of the same name is skipped, because the worktree's own copy stands for it.
 *
 * Like pi (docs/security.md), context files load regardless of project trust; the caller turns
 * them off with `enabled: false` (`--no-context-files`).
 */
import { errorText } from "../../../shared/error-text";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { canonicalPath, readText, type ResourceDiagnostic } from "./resources";

export const CONTEXT_FILE_NAMES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"] as const;

export interface ContextFile {
  path: string;
  content: string;
}

export interface ContextFileOptions {
  cwd: string;
  agentDir: string;
  /** false = `--no-context-files`. Default true. */
  enabled?: boolean;
  /** Receives files that exist but cannot be read (they are skipped). */
  onWarning?: (diagnostic: ResourceDiagnostic) => void;
}

/** The context files in prompt order: agent dir first, then outermost ancestor to cwd. */
export function loadContextFiles(options: ContextFileOptions): ContextFile[] {
  if (options.enabled === false) return [];
  const warn = options.onWarning ?? (() => undefined);
  const cwd = resolve(options.cwd);
  const files: ContextFile[] = [];
  const seen = new Set<string>();

  const global = contextFileIn(resolve(options.agentDir), warn);
  if (global) {
    files.push(global);
    seen.add(global.path);
  }

  const shadowed = shadowedByWorktree(cwd, warn);
  const chain: ContextFile[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    const file = contextFileIn(dir, warn);
    if (file && !seen.has(file.path) && canonicalPath(file.path) !== shadowed) {
      chain.unshift(file);
      seen.add(file.path);
    }
    if (dirname(dir) === dir) break;
  }
  return [...files, ...chain];
}

/** The context file of one directory, or undefined. */
export function contextFileIn(dir: string, warn: (d: ResourceDiagnostic) => void = () => undefined): ContextFile | undefined {
  for (const name of CONTEXT_FILE_NAMES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      if (!statSync(path).isFile()) continue;
      return { path, content: readText(path) };
    } catch (error) {
      warn({ type: "warning", message: `could not read context file: ${errorText(error)}`, path });
    }
  }
  return undefined;
}

/**
 * When cwd is in a linked worktree whose main checkout is an ancestor (`git worktree add
 * ./sub/wt`), the main checkout's context file named like the worktree's one (canonical path).
 */
function shadowedByWorktree(cwd: string, warn: (d: ResourceDiagnostic) => void): string | undefined {
  const git = findGit(cwd);
  if (!git) return undefined;
  const common = canonicalPath(git.commonGitDir);
  const worktreeRoot = canonicalPath(git.repoDir);
  const mainRoot = dirname(common);
  if (!worktreeRoot.startsWith(mainRoot + sep)) return undefined;
  // Only a main checkout whose own .git is that common dir (not a bare layout or a submodule).
  if (canonicalPath(join(mainRoot, ".git")) !== common) return undefined;
  const own = contextFileIn(worktreeRoot, warn);
  return own ? join(mainRoot, basename(own.path)) : undefined;
}

/** The nearest `.git` upwards: a folder, or a file `gitdir: <path>` of a linked worktree. */
function findGit(start: string): { repoDir: string; commonGitDir: string } | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      try {
        if (statSync(dotGit).isDirectory()) {
          return existsSync(join(dotGit, "HEAD")) ? { repoDir: dir, commonGitDir: dotGit } : undefined;
        }
        const text = readFileSync(dotGit, "utf8").trim();
        if (text.startsWith("gitdir: ")) {
          const gitDir = resolve(dir, text.slice(8).trim());
          if (!existsSync(join(gitDir, "HEAD"))) return undefined;
          const commonFile = join(gitDir, "commondir");
          const commonGitDir = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, "utf8").trim()) : gitDir;
          return { repoDir: dir, commonGitDir };
        }
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

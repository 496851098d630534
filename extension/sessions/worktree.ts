import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface Worktree {
  path: string;
  branch: string;
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, windowsHide: true, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args[0]} failed: ${(stderr || error.message).trim()}`));
      else resolve(stdout.trim());
    });
  });
}

/** The top folder of the git repository holding `folder`; undefined when it is not in one (or git is missing). */
export async function gitRoot(folder: string): Promise<string | undefined> {
  try {
    return await git(folder, ["rev-parse", "--show-toplevel"]);
  } catch {
    return undefined;
  }
}

/** A branch name for a new session's worktree: pi/<slug>-<time>. */
export function worktreeBranch(name: string, now = new Date()): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "session";
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
  return `pi/${slug}-${stamp}`;
}

/**
 * A new git worktree on a new branch from HEAD, under `parent` (the extension's storage, outside
 * the repository), for a session that works apart from the user's checkout. The user's own
 * working tree, index and current branch are not touched.
 */
export async function createWorktree(repoRoot: string, parent: string, branch: string): Promise<Worktree> {
  fs.mkdirSync(parent, { recursive: true });
  const dir = path.join(parent, `${path.basename(repoRoot)}-${branch.replace(/[^\w.-]+/g, "-")}`);
  await git(repoRoot, ["worktree", "add", "-b", branch, dir, "HEAD"]);
  return { path: dir, branch };
}

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { realOrSame } from "../real-path";

/** `gitdir: <path>` of a worktree's or submodule's `.git` file; its common dir (config, hooks) when it has one. */
export function gitDirOf(dotGitFile: string): string | undefined {
  try {
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGitFile, "utf8"));
    if (!match) return undefined;
    const gitDir = resolve(dirname(dotGitFile), match[1].trim());
    try {
      return realOrSame(resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim()));
    } catch {
      return realOrSame(gitDir);
    }
  } catch {
    return undefined;
  }
}

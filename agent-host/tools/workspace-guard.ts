/**
 * `--workspace-only` at the place a tool opens a file: the path really opened (every component
 * resolved, dangling symlinks followed to what they would create) must lie inside the working
 * directory. bash is not confined: a shell command can reach any file the user can.
 */
import { realPathOf, resolvesInside } from "../../shared/node/real-path";
import type { PathGuard } from "./paths";

export function createWorkspaceGuard(cwd: string): PathGuard {
  const root = realPathOf(cwd);
  return (absPath, asWritten) => {
    if (!resolvesInside([root], absPath)) throw new Error(`Refused: ${asWritten} is outside the workspace (${root}). This agent may only use paths inside it.`);
  };
}

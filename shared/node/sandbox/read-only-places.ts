/**
 * What a workspace's sandbox keeps read-only besides the protected names themselves, as real
 * paths, for the doors that write from outside the sandbox to judge by (protected-match.ts): where
 * its top-level protected names lead when they are links (`.vscode -> config/vscode`: bwrap keeps
 * the target read-only), the git dir its `.git` file names (`--separate-git-dir`, a worktree's
 * common dir), and, with the home folder inside the workspace, the home's start-up files. The
 * same places bwrap-args.ts mounts read-only at the top of a writable root.
 */
import { lstatSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { isInside } from "../real-path";
import { gitDirOf } from "./git-dir";
import { homeStartupFiles, protectedWorkspaceNames } from "./protected-paths";

function real(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function readOnlyPlaces(workspace: string, home: string | undefined = process.env.HOME): string[] {
  const places: (string | undefined)[] = [];
  for (const entry of protectedWorkspaceNames) {
    const path = join(workspace, entry.name);
    if (isLink(path)) places.push(real(path));
  }
  places.push(gitDirOf(join(workspace, ".git")));
  const realHome = home === undefined ? undefined : real(home);
  const realWorkspace = real(workspace);
  if (realHome && realWorkspace && isInside(realWorkspace, realHome)) for (const entry of homeStartupFiles) places.push(real(join(realHome, entry.name)) ?? join(realHome, entry.name));
  return places.filter((place): place is string => place !== undefined);
}

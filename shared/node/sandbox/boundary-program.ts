/**
 * Where the programs the sandbox is made of (bwrap, nsenter) are taken from. They run outside the
 * sandbox with the user's rights, so one found first on the editor's PATH in a folder a sandboxed
 * command can write (`~/bin` with home as the workspace, a project's `bin` that direnv put on the
 * PATH) was a way out: a command planted `nsenter` there, and the next session's sandbox ran it to
 * start every command. A program is taken only from a real place no sandbox can change: outside
 * every writable root (where bwrap binds the folder writable, even for root), owned by root and
 * writable by no one else, and so every folder on its way (one others may write only if sticky, as
 * /nix/store).
 * `PI_SANDBOX_BWRAP` names the user's own bwrap, used as it is.
 */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { isInside } from "../real-path";

export interface FoundProgram {
  /** The first program of that name the sandbox may be made with, if any. */
  path?: string;
  /** The first one found before it that it may not be made with, and why. */
  refused?: { path: string; why: string };
}

/** The first `name` on the PATH-style list (then /usr/bin, /bin) that `whyNotBoundary` accepts. */
export function findBoundaryProgram(name: string, pathList: string, writableRoots: readonly string[] = []): FoundProgram {
  let refused: FoundProgram["refused"];
  for (const dir of [...pathList.split(delimiter), "/usr/bin", "/bin"]) {
    if (!dir.startsWith("/")) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue;
    }
    const why = whyNotBoundary(path, writableRoots);
    if (why === undefined) return { path, ...(refused ? { refused } : {}) };
    refused ??= { path, why };
  }
  return refused ? { refused } : {};
}

/** Why the program at `path` may not make the sandbox (undefined: it may). */
export function whyNotBoundary(path: string, writableRoots: readonly string[]): string | undefined {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    return "it cannot be resolved";
  }
  const root = writableRoots.find((r) => isInside(r, real));
  if (root !== undefined) return `${real} lies in ${root}, which sandboxed commands can write`;
  for (let at = real; ; at = dirname(at)) {
    let info: import("node:fs").Stats;
    try {
      info = statSync(at);
    } catch {
      return `${at} cannot be read`;
    }
    if (info.uid !== 0) return `${at} is not owned by root`;
    // A folder others may write is safe only with the sticky bit (/nix/store): what root owns there stays.
    if ((info.mode & 0o022) !== 0 && (at === real || (info.mode & 0o1000) === 0)) return `${at} is writable by others than root`;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * Where a path really leads, for confinement checks (the host's `--workspace-only`, the editor's
 * host tools): every component resolved as the OS would when opening or creating it, dangling
 * symlinks followed to the file they would create. Checking the text of a path is not enough: a
 * link inside the workspace can point anywhere.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, statfsSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** `path`'s real path where it exists (realpath(3)), else `path` resolved as written. */
export function realOrSame(path: string): string {
  // Most paths asked about here do not exist (a home's secrets, mostly absent): a failed realpath
  // costs an exception (~17 µs), existsSync's answer none (the checks of a read went 0.55 -> ms).
  if (!existsSync(path)) return resolve(path);
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** Linux's own limit on links followed while resolving one path. */
const MAX_LINKS = 40;

/**
 * `path` (absolute) with every symlink resolved; the part that does not exist yet is appended as
 * written. A dangling symlink is followed to its target, so a write through it is judged by the
 * place it would create. Throws on a link loop.
 */
export function realPathOf(path: string, linksFollowed = 0): string {
  const missing: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    // existsSync first: a failed realpath costs an exception, and most paths asked about are missing.
    if (existsSync(current)) {
      try {
        return join(realpathSync.native(current), ...missing);
      } catch {
        // removed meanwhile: as a missing one
      }
    }
    const target = linkTarget(current);
    if (target !== undefined) {
      if (linksFollowed >= MAX_LINKS) throw new Error(`Too many levels of symbolic links: ${path}`);
      // The target is relative to the link's real folder, which exists since the link does.
      return join(realPathOf(resolve(realpathSync.native(dirname(current)), target), linksFollowed + 1), ...missing);
    }
    if (dirname(current) === current) return join(current, ...missing);
    missing.unshift(basename(current));
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * realPathOf, or `path` resolved as written on a link loop: where a write or a dangling link would
 * land (`keys/new` with `keys -> ~/.ssh` is in ~/.ssh), for judging a path against hidden places.
 */
export function realPathOrSame(path: string): string {
  try {
    return realPathOf(path);
  } catch {
    return resolve(path);
  }
}

/** True when `target` is `root` or below it (both real paths). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** True when `absPath`, fully resolved, lies in one of `realRoots` (already real paths); false on a link loop. */
export function resolvesInside(realRoots: readonly string[], absPath: string): boolean {
  let real: string;
  try {
    real = realPathOf(absPath);
  } catch {
    return false;
  }
  return realRoots.some((root) => isInside(root, real));
}

/** procfs's f_type (statfs(2)): /proc wherever it is mounted. */
const PROC_SUPER_MAGIC = 0x9fa0;

/**
 * Whether the real path `real` lies on a procfs. The sandbox has its own /proc (its own processes);
 * the extension host's is the host's: `/proc/self/environ` is the editor's environment, and neither
 * the path's text nor the workspace check sees it when a file is named outside the workspace
 * (`/tmp/build/environ` with `build -> /proc/self`, made by a command in /tmp), or a workspace
 * folder leads there (or is `/`). Nothing there: not; statfs failing otherwise: taken as procfs.
 */
export function onProcFs(real: string): boolean {
  if (process.platform !== "linux") return false;
  try {
    return statfsSync(real).type === PROC_SUPER_MAGIC;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

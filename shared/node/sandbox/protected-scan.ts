/**
 * The protected names (protected-paths.ts) found at any depth below the writable roots: a nested
 * repository's `.git`, a sub-project's `.vscode`, a symlinked `.vscode -> config/vscode`. What is
 * found when a sandboxed command starts is mounted read-only (bwrap-args.ts); what differs when it
 * ends was made by it and is moved aside (quarantine.ts). Bounded, and fast on big trees: one
 * readdir per folder (the entry types come with it, no stat but for a hit), symlinked folders not
 * followed, a protected folder not entered (it is mounted or moved whole), `node_modules` not
 * entered (its own entries are looked at: `node_modules/.git`), at most `maxDirs` folders.
 */
import { lstatSync, readdirSync, readlinkSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { protectedWorkspaceNames } from "./protected-paths";

export interface ProtectedEntry {
  path: string;
  kind: "dir" | "file" | "symlink";
  dev: number;
  ino: number;
  /** A symlink's target, as written. */
  target?: string;
}

export interface ProtectedScan {
  entries: ProtectedEntry[];
  /** False when the walk stopped at its caps: what lies beyond was not looked at. */
  complete: boolean;
  /** Folders read. */
  dirs: number;
}

export interface ScanLimits {
  maxDirs: number;
  maxDepth: number;
}

/** About a 1,000,000-file tree; a workspace beyond that is told it was not scanned whole. */
export const defaultScanLimits: ScanLimits = { maxDirs: 200_000, maxDepth: 64 };

const protectedNames = new Set(protectedWorkspaceNames.map((entry) => entry.name));

export function isProtectedName(name: string): boolean {
  return protectedNames.has(name);
}

export function identify(path: string): ProtectedEntry | undefined {
  try {
    const info = lstatSync(path);
    const kind = info.isSymbolicLink() ? "symlink" : info.isDirectory() ? "dir" : "file";
    return { path, kind, dev: info.dev, ino: info.ino, ...(kind === "symlink" ? { target: readlinkSync(path) } : {}) };
  } catch {
    return undefined;
  }
}

function readDir(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** `skip(path)`: paths that are not the tree's own (the sandbox's placeholders). */
export function scanProtected(roots: readonly string[], skip: (path: string) => boolean = () => false, limits: ScanLimits = defaultScanLimits): ProtectedScan {
  const entries: ProtectedEntry[] = [];
  const stack: { path: string; depth: number }[] = roots.map((path) => ({ path, depth: 0 }));
  let dirs = 0;
  let complete = true;
  const hit = (path: string) => {
    if (skip(path)) return;
    const entry = identify(path);
    if (entry) entries.push(entry);
  };
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (dirs >= limits.maxDirs) {
      complete = false;
      break;
    }
    dirs++;
    for (const dirent of readDir(next.path)) {
      const path = join(next.path, dirent.name);
      if (protectedNames.has(dirent.name)) hit(path);
      else if (!dirent.isDirectory()) continue;
      else if (dirent.name === "node_modules") {
        dirs++;
        for (const inner of readDir(path)) if (protectedNames.has(inner.name)) hit(join(path, inner.name));
      } else if (next.depth + 1 < limits.maxDepth) stack.push({ path, depth: next.depth + 1 });
      else complete = false;
    }
  }
  return { entries, complete, dirs };
}

/**
 * The same thing: a folder or file is its inode (moved with its parent, it is still the one that
 * was there); a symlink is its text at its place (its target is relative to where it is, and one
 * put back after a command replaced it is a new inode saying the same).
 */
export function sameEntry(a: ProtectedEntry, b: ProtectedEntry): boolean {
  if (a.kind === "symlink" || b.kind === "symlink") return a.kind === b.kind && a.path === b.path && a.target === b.target;
  return a.dev === b.dev && a.ino === b.ino && a.kind === b.kind;
}

/**
 * The protected names (protected-paths.ts) found at any depth below the writable roots: a nested
 * repository's `.git`, a sub-project's `.vscode`, a symlinked `.vscode -> config/vscode`. What is
 * found when a sandboxed command starts is mounted read-only (bwrap-args.ts); what differs when it
 * ends was made by it and is moved aside (quarantine.ts). Bounded, and fast on big trees: one
 * readdir per folder (the entry types come with it, no stat but for a hit), and with a ScanCache
 * one lstat per folder that did not change since the last scan; symlinked folders not
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
  /** Folders looked at. */
  dirs: number;
  /** Those folders (`node_modules` shallow: only its own entries count). */
  folders: ScannedFolder[];
}

export interface ScannedFolder {
  path: string;
  shallow: boolean;
}

export interface ScanLimits {
  maxDirs: number;
  maxDepth: number;
}

/**
 * About a 1,000,000-file tree; a workspace beyond that is told it was not scanned whole. No real
 * depth cap: a command can nest folders as deep as it likes (the folder count bounds the cost; a
 * path past PATH_MAX cannot be read here, nor reached by the editor's git).
 */
export const defaultScanLimits: ScanLimits = { maxDirs: 200_000, maxDepth: 4_096 };

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

/** One folder as last read: its protected entries and its folders (names), and whether the list can be taken again without reading. */
interface Listing {
  dev: bigint;
  ino: bigint;
  ctimeNs: bigint;
  /** Its change time lay well before it was read: a later change to it shows as another change time. */
  settled: boolean;
  hits: string[];
  folders: string[];
}

/**
 * What the last scan read, so the next reads only the folders that changed: one lstat per folder
 * instead of a readdir. A folder's change time moves whenever an entry is made, removed or renamed
 * in it, and no unprivileged process can set it (utimes sets it to now). A list read within 2 s of
 * the folder's last change is read again next time (the file system's clock is coarse).
 */
export class ScanCache {
  folders = new Map<string, Listing>();
}

const SETTLE_NS = 2_000_000_000n;

function listing(path: string, cache: ScanCache | undefined, seen: Map<string, Listing>): Listing | undefined {
  let info;
  try {
    info = lstatSync(path, { bigint: true });
  } catch {
    return undefined;
  }
  if (!info.isDirectory()) return undefined;
  const known = cache?.folders.get(path);
  if (known?.settled && known.dev === info.dev && known.ino === info.ino && known.ctimeNs === info.ctimeNs) {
    seen.set(path, known);
    return known;
  }
  const readAt = BigInt(Date.now()) * 1_000_000n;
  const list: Listing = { dev: info.dev, ino: info.ino, ctimeNs: info.ctimeNs, settled: info.ctimeNs < readAt - SETTLE_NS, hits: [], folders: [] };
  for (const dirent of readDir(path)) {
    if (protectedNames.has(dirent.name)) list.hits.push(dirent.name);
    else if (dirent.isDirectory()) list.folders.push(dirent.name);
  }
  seen.set(path, list);
  return list;
}

/** `skip(path)`: paths that are not the tree's own (the sandbox's placeholders). With a cache, only changed folders are read. */
export function scanProtected(roots: readonly string[], skip: (path: string) => boolean = () => false, limits: ScanLimits = defaultScanLimits, cache?: ScanCache): ProtectedScan {
  const entries: ProtectedEntry[] = [];
  const folders: ScannedFolder[] = [];
  const seen = new Map<string, Listing>();
  const stack: { path: string; depth: number }[] = roots.map((path) => ({ path, depth: 0 }));
  let complete = true;
  const hits = (dir: string, list: Listing) => {
    for (const name of list.hits) {
      const path = join(dir, name);
      const entry = skip(path) ? undefined : identify(path);
      if (entry) entries.push(entry);
    }
  };
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (folders.length >= limits.maxDirs) {
      complete = false;
      break;
    }
    const list = listing(next.path, cache, seen);
    if (!list) continue;
    folders.push({ path: next.path, shallow: false });
    hits(next.path, list);
    for (const name of list.folders) {
      const path = join(next.path, name);
      if (name === "node_modules") {
        const modules = listing(path, cache, seen);
        if (modules) (folders.push({ path, shallow: true }), hits(path, modules));
      } else if (next.depth + 1 < limits.maxDepth) stack.push({ path, depth: next.depth + 1 });
      else complete = false;
    }
  }
  if (cache) cache.folders = seen;
  return { entries, complete, dirs: folders.length, folders };
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

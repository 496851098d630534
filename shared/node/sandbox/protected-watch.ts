/**
 * While sandboxed commands run: one inotify watch (fs.watch, not recursive) per folder below the
 * writable roots, so that a protected name appearing anywhere (`sub/.git`) is noticed within
 * milliseconds rather than when the command ends — the editor's git looks at a new `.git` 500 ms
 * after it appeared. It is only a trigger: the caller then compares the whole tree with what was
 * there when each command started (quarantine.ts), so a folder renamed under a watch (its path
 * here goes stale) costs nothing but a missed trigger, which the sweep at the end still catches.
 * The folders the scan at the start just read are watched without being read again (one made
 * between the scan and the watch is left to the sweep at the end); a new folder is watched first,
 * then listed, so nothing made in it in between is missed. The same walk rules as protected-scan.ts; at most `maxWatches` folders (inotify watches are the
 * user's, shared with the editor's own watcher), beyond that only the sweep at the end.
 */
import { lstatSync, readdirSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { isProtectedName, type ScannedFolder } from "./protected-scan";

/** Names made in one folder in one turn looked at one by one (an lstat each); more, and the folder is listed once. */
const LOOKS_PER_FOLDER = 16;

export class ProtectedWatch {
  /** Each watched folder with its inode: a folder removed and made again at the same path is a new one to watch. */
  private readonly watchers = new Map<string, { watcher: FSWatcher; ino: number }>();
  private full = false;
  /**
   * Names made in watched folders, by folder, looked at once per turn of the event loop: a job
   * renaming a few names in a loop makes thousands of events a second, and a look per event (an
   * lstat, blocking on the folder the job keeps busy) held the host's thread for minutes (the tool
   * calls waiting). A job making ever new names (u1, u2, …) defeats a look per name as well: past a
   * few names a folder is listed once instead, and only its new folders looked at.
   */
  private readonly pending = new Map<string, Set<string>>();
  private flushing: NodeJS.Immediate | undefined;

  constructor(
    folders: readonly ScannedFolder[],
    private readonly onProtected: (path: string) => void,
    private readonly maxWatches = 20_000,
  ) {
    this.addScanned(folders);
  }

  /** The folders a scan just read that are not watched yet (a watch kept from an earlier command). */
  addScanned(folders: readonly ScannedFolder[]): void {
    for (const { path, shallow } of folders) if (!this.watchers.has(path)) this.watchOne(path, shallow);
  }

  /**
   * Anything made in `path` (a folder) or written to it (a file) is reported as `path` itself: for
   * another sandbox's stub that appeared below the roots while a command runs, which this one could
   * not mount and whose filling no new name would show.
   */
  watchContents(path: string): void {
    if (this.watchers.has(path) || this.watchers.size >= this.maxWatches) return;
    try {
      const info = lstatSync(path);
      if (!info.isDirectory() && !info.isFile()) return;
      const watcher = watch(path, { persistent: false }, () => this.onProtected(path));
      watcher.on("error", () => this.drop(path));
      this.watchers.set(path, { watcher, ino: info.ino });
    } catch {
      // gone already: the sweep at the end looks again
    }
  }

  /** Whether some folders were left unwatched (the cap, or the system's inotify limit). */
  get partial(): boolean {
    return this.full;
  }

  get size(): number {
    return this.watchers.size;
  }

  /** Whether `dir` is watched now (a folder, under the cap and the system's limit). */
  private watchOne(dir: string, shallow: boolean): boolean {
    if (this.watching(dir)) return false;
    if (this.watchers.size >= this.maxWatches) {
      this.full = true;
      return false;
    }
    try {
      const info = lstatSync(dir);
      if (!info.isDirectory()) return false;
      // Only "rename" (an entry made, removed or renamed) can bring a name or a folder; "change" (written) cannot.
      const watcher = watch(dir, { persistent: false }, (event, name) => event === "rename" && this.changed(dir, name, shallow));
      watcher.on("error", () => this.drop(dir));
      this.watchers.set(dir, { watcher, ino: info.ino });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") this.full = true;
      return false;
    }
  }

  /** A new folder: watched, then the protected names in it reported and its folders walked (not node_modules' own: only its entries are looked at). */
  private add(dir: string, shallow: boolean): void {
    if (!this.watchOne(dir, shallow)) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (isProtectedName(entry.name)) this.onProtected(path);
      else if (entry.isDirectory() && !shallow) this.add(path, entry.name === "node_modules");
    }
  }

  private changed(dir: string, name: string | Buffer | null, shallow: boolean): void {
    if (name === null) return;
    const entry = String(name);
    const path = join(dir, entry);
    if (isProtectedName(entry)) {
      this.onProtected(path);
      return;
    }
    if (shallow) return;
    const names = this.pending.get(dir) ?? new Set<string>();
    this.pending.set(dir, names.add(entry));
    this.flushing ??= setImmediate(() => {
      this.flushing = undefined;
      const batches = [...this.pending];
      this.pending.clear();
      for (const [folder, made] of batches) this.addMade(folder, made);
    });
  }

  /** The names made in `dir` that are folders now, added (add), each looked at, or past a few, `dir` listed once. */
  private addMade(dir: string, names: ReadonlySet<string>): void {
    if (names.size <= LOOKS_PER_FOLDER) {
      for (const name of names) this.add(join(dir, name), name === "node_modules");
      return;
    }
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && names.has(entry.name)) this.add(join(dir, entry.name), entry.name === "node_modules");
  }

  /** Watched already, and still the same folder (not one removed and made again). */
  private watching(dir: string): boolean {
    const known = this.watchers.get(dir);
    if (!known) return false;
    try {
      const info = lstatSync(dir);
      if (info.isDirectory() && info.ino === known.ino) return true;
    } catch {
      // gone
    }
    this.drop(dir);
    return false;
  }

  private drop(dir: string): void {
    this.watchers.get(dir)?.watcher.close();
    this.watchers.delete(dir);
  }

  dispose(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    this.pending.clear();
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

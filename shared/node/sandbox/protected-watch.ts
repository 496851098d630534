/**
 * While sandboxed commands run: one inotify watch (fs.watch, not recursive) per folder below the
 * writable roots, so that a protected name appearing anywhere (`sub/.git`) is noticed within
 * milliseconds rather than when the command ends — the editor's git looks at a new `.git` 500 ms
 * after it appeared. It is only a trigger: the caller then compares the whole tree with what was
 * there when each command started (quarantine.ts), so a folder renamed under a watch (its path
 * here goes stale) costs nothing but a missed trigger, which the sweep at the end still catches.
 * A new folder is watched first, then listed, so nothing made in it in between is missed. The
 * same walk rules as protected-scan.ts; at most `maxWatches` folders (inotify watches are the
 * user's, shared with the editor's own watcher), beyond that only the sweep at the end.
 */
import { lstatSync, readdirSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { isProtectedName } from "./protected-scan";

export class ProtectedWatch {
  /** Each watched folder with its inode: a folder removed and made again at the same path is a new one to watch. */
  private readonly watchers = new Map<string, { watcher: FSWatcher; ino: number }>();
  private full = false;

  constructor(
    roots: readonly string[],
    private readonly onProtected: (path: string) => void,
    private readonly maxWatches = 20_000,
  ) {
    for (const root of roots) this.add(root, false);
  }

  /** Whether some folders were left unwatched (the cap, or the system's inotify limit). */
  get partial(): boolean {
    return this.full;
  }

  get size(): number {
    return this.watchers.size;
  }

  /** Watches `dir`, then reports the protected names in it and walks its folders (not node_modules' own: only its entries are looked at). */
  private add(dir: string, report: boolean, shallow = false): void {
    if (this.watching(dir)) return;
    if (this.watchers.size >= this.maxWatches) {
      this.full = true;
      return;
    }
    let watcher: FSWatcher;
    let ino: number;
    try {
      const info = lstatSync(dir);
      if (!info.isDirectory()) return;
      ino = info.ino;
      watcher = watch(dir, { persistent: false }, (_event, name) => this.changed(dir, name, shallow));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") this.full = true;
      return;
    }
    watcher.on("error", () => this.drop(dir));
    this.watchers.set(dir, { watcher, ino });
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (isProtectedName(entry.name)) {
        if (report) this.onProtected(path);
      } else if (entry.isDirectory() && !shallow) this.add(path, report, entry.name === "node_modules");
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
    if (!shallow) this.add(path, true, entry === "node_modules");
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
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

/**
 * Home rebuilt around its secrets (Linux, bwrap-args.ts). A mount hides what is at a path when the
 * sandbox starts: nothing hides a secret that appears later (`~/.git-credentials` stored by the
 * user's next `git push`) or one saved anew by rename (an editor's save of `~/.netrc`: the mount
 * stays on the old file), and a job the model leaves running would read either. So each folder
 * that holds (or would hold) a hidden secret is not shown live: it is an empty tmpfs holding a
 * bind of each of its other entries (a symlink made again as it is), read-only once everything is
 * mounted. What the user adds there later is not seen inside, and a command cannot add a name
 * there either (a new name at the top of home fails with EROFS; below it, folders are as before).
 */
import { basename, dirname, join } from "node:path";
import { isInside } from "../real-path";
import type { PathKind } from "./bwrap-args";
import { isCopyName } from "./secret-places";

export interface ListedFolder {
  /** Its permission bits (the rebuilt folder gets the same). */
  mode: number;
  entries: readonly { name: string; kind: "dir" | "file" | "symlink" | "other"; target?: string; id?: string }[];
}

export interface HomeViewInputs {
  /** The homes whose secrets are hidden (real paths). */
  homes: readonly string[];
  /** Where the hidden secrets are or were, and the other paths hidden (sockets): left out. */
  hidden: ReadonlySet<string>;
  /** The writable roots: an entry inside one is bound writable. */
  roots: readonly string[];
  pathKind(path: string): PathKind;
  realPath(path: string): string;
  /** A folder's entries (a symlink with its target) and mode; undefined if it cannot be read. */
  listFolder(dir: string): ListedFolder | undefined;
}

export interface HomeView {
  /** The folders rebuilt (real paths): each to be made read-only once everything is mounted. */
  rebuilt: ReadonlySet<string>;
  /** The mounts that rebuild them, each with its place (mount-order.ts orders them). */
  mounts: readonly { path: string; op: string[] }[];
  /**
   * The same folders as a home keeper holds them (home-keeper.ts): every entry bound as it is
   * (the command's own bwrap makes it read-only), and a mount point where each hidden entry is.
   */
  kept: readonly { path: string; op: string[] }[];
  /** The hidden entries a keeper hides itself (directly in a rebuilt folder). */
  hiddenByKeeper: ReadonlySet<string>;
  /** What was listed (names, kinds, targets, file ids, modes): a keeper holding another key is out of date. */
  key: string;
}

/** No folder rebuilt. */
export const noHomeView: HomeView = { rebuilt: new Set(), mounts: [], kept: [], hiddenByKeeper: new Set(), key: "" };

/**
 * The nearest existing real folder holding each hidden place inside a home, rebuilt. However many
 * entries that binds (bwrap rereads the mount table for each: here 100 binds ~25 ms, 400 ~125 ms):
 * a limit would let a model that can make names in home (its write tool, home as the workspace)
 * push a folder past it and have the next sandbox show that folder live.
 */
export function rebuildHomes(input: HomeViewInputs): HomeView {
  const wanted = new Set<string>();
  for (const place of input.hidden) {
    const home = input.homes.find((h) => h !== "/" && place !== h && isInside(h, place));
    if (home === undefined) continue;
    for (let dir = dirname(place); isInside(home, dir); dir = dirname(dir)) {
      const kind = input.pathKind(dir);
      if (kind === "dir" && input.realPath(dir) === dir) {
        wanted.add(dir);
        break;
      }
      // A file on the way: the secret cannot be there. A link: its target is a place of its own.
      if (kind !== "missing" || dir === home) break;
    }
  }
  const listed = [...wanted].flatMap((dir) => {
    const folder = input.listFolder(dir);
    return folder ? [{ dir, folder }] : []; // unreadable: the mounts alone there
  });
  if (listed.length === 0) return noHomeView;
  const rebuilt = new Set(listed.map((l) => l.dir));
  const mounts: { path: string; op: string[] }[] = [];
  const kept: { path: string; op: string[] }[] = [];
  const hiddenByKeeper = new Set<string>();
  // The hidden names by folder: a copy of one beside it (secret-places.ts isCopyName) made after the places were looked at is left out too.
  const hiddenNames = new Map<string, string[]>();
  for (const path of input.hidden) hiddenNames.set(dirname(path), [...(hiddenNames.get(dirname(path)) ?? []), basename(path)]);
  const isHidden = (dir: string, name: string) => input.hidden.has(join(dir, name)) || (hiddenNames.get(dir) ?? []).some((base) => isCopyName(name, base));
  for (const { dir, folder } of listed) {
    const tmpfs = { path: dir, op: ["--perms", (folder.mode & 0o7777).toString(8).padStart(4, "0"), "--tmpfs", dir] };
    mounts.push(tmpfs);
    kept.push(tmpfs);
    for (const entry of folder.entries) {
      const path = join(dir, entry.name);
      if (rebuilt.has(path)) continue;
      if (isHidden(dir, entry.name)) {
        // A keeper hides it (empty) where the command's bwrap would: that one cannot make a mount point in a folder read-only for it.
        if (entry.kind === "dir") {
          kept.push({ path, op: ["--tmpfs", path] });
          // But for a writable root inside (a workspace in ~/.mozilla/…/chrome): the command's bwrap binds it from here.
          for (const root of input.roots) if (root !== path && isInside(path, root)) kept.push({ path: root, op: ["--bind-try", root, root] });
        } else if (entry.kind !== "symlink") kept.push({ path, op: ["--ro-bind-try", "/dev/null", path] });
        if (entry.kind !== "symlink") hiddenByKeeper.add(path);
        continue;
      }
      if (entry.kind === "symlink") {
        if (entry.target === undefined) continue;
        const link = { path, op: ["--symlink", entry.target, path] };
        mounts.push(link);
        kept.push(link);
        continue;
      }
      // -try: an entry gone since the listing (an editor's swap file) does not stop the sandbox.
      mounts.push({ path, op: [input.roots.some((root) => isInside(root, path)) ? "--bind-try" : "--ro-bind-try", path, path] });
      kept.push({ path, op: ["--bind-try", path, path] });
    }
  }
  const key = JSON.stringify(listed.map(({ dir, folder }) => [dir, folder.mode, folder.entries.map((e) => [e.name, e.kind, e.target ?? "", e.id ?? ""])]));
  return { rebuilt, mounts, kept, hiddenByKeeper, key: `${key}${JSON.stringify(kept.map((k) => k.op))}` };
}

/** Whether a mount point bwrap makes at `path` lands in a rebuilt folder (a tmpfs), not on the host. */
export function landsInRebuilt(path: string, view: HomeView, pathKind: (path: string) => PathKind): boolean {
  if (view.rebuilt.size === 0) return false;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (view.rebuilt.has(dir)) return true;
    if (pathKind(dir) !== "missing" || dirname(dir) === dir) return false;
  }
}

/**
 * Pinning (bwrap-args.ts): a mount moves with the folder holding it, so the folders on the way to
 * what the sandbox keeps read-only or hidden inside a writable root are made mount points
 * themselves (bound onto themselves: a mount point cannot be renamed or removed).
 */
import { basename, dirname, join, relative, sep } from "node:path";
import { isInside } from "../real-path";
import type { BwrapInputs } from "./bwrap-args";
import type { MountList } from "./mount-order";
import type { SandboxPolicy } from "./policy";
import { homeSecretKind, homeSecrets, homeStartupFiles } from "./protected-paths";
import type { SecretPlace } from "./secret-places";

/** Each home start-up entry with the folders on its way pinned (pinFoldersBetween), and where pinning stopped. */
export function pinStartupFolders(home: string, roots: readonly string[], input: BwrapInputs, m: MountList, pinned: Set<string>): { path: string; kind: "dir" | "file"; stopped: string | undefined }[] {
  return homeStartupFiles.map((entry) => {
    const path = join(home, entry.name);
    return { path, kind: entry.kind, stopped: pinFoldersTo(path, roots, input, m, pinned) };
  });
}

/**
 * The folders on the way to each place a home secret is or was at, pinned: a hidden file's mount
 * moves with its folder, so `mv ~/.docker d && cat d/config.json` showed it (and the next command
 * hid nothing at `~/.docker/config.json`). The secret itself is a mount point already.
 */
export function pinSecretFolders(secrets: readonly SecretPlace[], roots: readonly string[], input: BwrapInputs, m: MountList, pinned: Set<string>): void {
  for (const place of secrets) if (input.pathKind(place.path) !== "missing") pinFoldersTo(place.path, roots, input, m, pinned);
}

/** The home secrets missing now (none of visibleSecrets), with the folders on their way pinned and where pinning stopped. */
export function missingSecretStubs(home: string, policy: SandboxPolicy, roots: readonly string[], input: BwrapInputs, m: MountList, pinned: Set<string>): { path: string; kind: "dir" | "file"; stopped: string | undefined }[] {
  return homeSecrets
    .filter((name) => !policy.visibleSecrets?.includes(name) && input.pathKind(join(home, name)) === "missing")
    .map((name) => {
      const path = join(home, name);
      return { path, kind: homeSecretKind(name), stopped: pinFoldersTo(path, roots, input, m, pinned) };
    });
}

/**
 * pinFoldersBetween from the writable root holding `path`; through a symlinked folder
 * (`~/.config -> dotfiles/config`) the mount lands where it leads: those folders are pinned too.
 * Nothing outside the writable roots is pinned (it is read-only there, and a bind of it would make
 * it writable). Returns where pinning stopped on the way as written, if it did.
 */
function pinFoldersTo(path: string, roots: readonly string[], input: BwrapInputs, m: MountList, pinned: Set<string>): string | undefined {
  const parent = dirname(path);
  const real = input.pathKind(parent) === "dir" ? join(input.realPath(parent), basename(path)) : path;
  const realRoot = roots.find((r) => isInside(r, real));
  if (real !== path && realRoot) pinFoldersBetween(realRoot, real, pinned, input, m);
  const root = roots.find((r) => isInside(r, path));
  return root === undefined ? undefined : pinFoldersBetween(root, path, pinned, input, m);
}

/**
 * A mount moves with the folder holding it: `mv ~/.config x && mkdir -p ~/.config/git` would leave
 * the read-only `~/.config/git` behind, renamed, and make a writable one. So every folder between
 * the writable root and `path` is bound onto itself (still writable, but a mount point cannot be
 * renamed or removed: EBUSY). Returns the first one missing (or not a folder), where pinning stops:
 * a missing one is to be a stub itself; with a file there, `path` cannot exist, and the file is
 * kept read-only. A folder reached through a symlink cannot be pinned (the link stays
 * replaceable: the sweep puts it back, index.ts `startupLinks`): pinning stops there, and the
 * caller pins the folders the link leads to.
 */
function pinFoldersBetween(root: string, path: string, pinned: Set<string>, input: BwrapInputs, m: MountList): string | undefined {
  const parts = relative(root, dirname(path)).split(sep).filter(Boolean);
  let folder = root;
  for (const part of parts) {
    folder = join(folder, part);
    if (pinned.has(folder)) continue;
    const kind = input.pathKind(folder);
    if (kind === "missing") return folder;
    if (input.realPath(folder) !== folder) return undefined;
    if (kind === "file") {
      m.mount(folder, "--ro-bind", folder, folder);
      pinned.add(folder);
      return folder;
    }
    m.mount(folder, "--bind", folder, folder);
    pinned.add(folder);
  }
  return undefined;
}

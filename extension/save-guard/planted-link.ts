/**
 * The link a save would follow out of the places sandboxed commands may write: a command can make
 * `notes.txt` (or a folder on its way) a link to `~/.bashrc` or `.git/hooks/pre-commit`, and VS
 * Code's save opens the path by name, so the user's next save of the document writes there, outside
 * the sandbox. A link below a workspace folder made since the first sandboxed agent started (its
 * change time: `ln`, `mv` and `touch -h` all set it to now, and nothing sets it back) whose path
 * leads somewhere commands may not write is taken for a command's; an older one is the user's own
 * (a dotfiles link) and left alone. Free of vscode (node:fs): unit-tested with real links.
 */
import { lstatSync, mkdirSync, readlinkSync, renameSync, symlinkSync, unlinkSync, writeFileSync, type Stats } from "node:fs";
import { join, relative, sep } from "node:path";
import { isInside, realOrSame, realPathOrSame } from "../../shared/node/real-path";
import { quarantineBatch, withWritableFolder } from "../../shared/node/sandbox/quarantine";

export interface PlantedLink {
  /** The link on the document's path (the file itself, or a folder on its way). */
  link: string;
  /** Where the path leads through it. */
  leadsTo: string;
}

export interface SaveScope {
  /** Where sandboxed commands write, as written (the workspace folders, an agent's worktree, its own folders): links there are looked at. */
  folders: readonly string[];
  /**
   * Of those, where a write may land: the folders the sandboxed agents run in. Not every workspace
   * folder (a multi-root workspace's second folder is not the agent's: a link from the agent's into
   * it had the editor write what the sandbox could not), nor an agent's own folders (parts of which
   * it may not change).
   */
  writable: readonly string[];
  /** Why sandboxed commands may not write the real path `real` although it lies in a workspace folder (a protected name, a hidden secret); undefined: they may. */
  offLimits(real: string): string | undefined;
  /** Links changed at or after this time (ms since the epoch) are taken for a command's. */
  since: number;
}

/** Where a document's path led when the guard first saw it, and whether that was as it was opened. */
export interface FirstSeen {
  real: string;
  /** Seen as it was opened (else: already open when the guard started, maybe restored from an earlier window). */
  atOpen: boolean;
}

/**
 * The command-made link a save of `absPath` would follow out of where commands may write, if any.
 * `first`: where the path led when the document was first seen. Leading elsewhere now, the first
 * link on its way is taken whatever its age (a folder holding an old link of the user's, renamed
 * into the document's place, changes no link's time); leading where it led when opened, the user
 * opened it through that link and it is left alone.
 */
export function plantedLinkOnWay(absPath: string, scope: SaveScope, first?: FirstSeen): PlantedLink | undefined {
  const folder = scope.folders.filter((f) => isInside(f, absPath)).sort((a, b) => b.length - a.length)[0];
  if (folder === undefined) return undefined;
  const leadsTo = realPathOrSame(absPath);
  const inside = scope.writable.some((f) => isInside(realOrSame(f), leadsTo));
  if (inside && scope.offLimits(leadsTo) === undefined) return undefined;
  if (first?.atOpen && first.real === leadsTo) return undefined;
  const movedSince = first !== undefined && first.real !== leadsTo;
  let path = folder;
  for (const part of relative(folder, absPath).split(sep)) {
    path = join(path, part);
    const stat = lstatOrUndefined(path);
    if (!stat) return undefined;
    if (stat.isSymbolicLink() && (stat.ctimeMs >= scope.since || movedSince)) return { link: path, leadsTo };
  }
  return undefined;
}

/**
 * Takes a link off the path: moved into a quarantine folder of its own (a rename, else a copy of
 * the link and an unlink: a link is only its target's text), with a `moved.json` saying where it
 * came from; returns where it went. What the command could have arranged around it does not keep
 * it there: a folder it made read-only (`chmod 555`: its owner, the user, gives write access
 * back), a quarantine folder that is not one (a whole agent may write its agent dir: a file, a
 * link there), no space or inodes left for the batch: then the link is removed in place
 * (undefined; its target is in the caller's message), which needs nothing but its folder.
 */
export function moveLinkAside(link: string, quarantineRoot: string): string | undefined {
  let to: string | undefined;
  try {
    to = intoQuarantine(link, quarantineRoot);
  } catch {
    to = undefined;
  }
  if (to === undefined && lstatOrUndefined(link)) {
    withWritableFolder(link, () => unlinkSync(link));
  }
  return to;
}

/**
 * Puts a link moved aside back at `link`, at the user's word: only if it is still the link moved
 * (its text `text`: an agent that may write its agent dir, where the quarantine is, could have
 * swapped it for another) and nothing took its place meanwhile. Throws saying why not.
 */
export function putLinkBack(link: string, movedTo: string, text: string): void {
  if (!lstatOrUndefined(movedTo)?.isSymbolicLink() || readlinkSync(movedTo) !== text) throw new Error(`${movedTo} is no longer the link moved aside`);
  if (lstatOrUndefined(link)) throw new Error(`${link} exists again`);
  renameSync(movedTo, link);
}

function intoQuarantine(link: string, quarantineRoot: string): string {
  mkdirSync(quarantineRoot, { recursive: true, mode: 0o700 });
  // Not through a link (one a whole agent made in its agent dir would have the batch made where it points).
  const root = lstatSync(quarantineRoot);
  if (!root.isDirectory()) throw new Error(`${quarantineRoot} is not a folder`);
  const batch = quarantineBatch(quarantineRoot, "save");
  mkdirSync(batch, { mode: 0o700 });
  const to = join(batch, "1");
  try {
    withWritableFolder(link, () => renameSync(link, to));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    symlinkSync(readlinkSync(link), to);
    withWritableFolder(link, () => unlinkSync(link));
  }
  try {
    writeFileSync(join(batch, "moved.json"), `${JSON.stringify([{ from: link, to }], null, 2)}\n`, { mode: 0o600 });
  } catch {
    // no space for the record: the link is off the path all the same, and the message says where it went
  }
  return to;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * What a sandboxed command made of a protected name, moved aside before anything outside the
 * sandbox runs it. bubblewrap cannot keep a name from being created at any depth (mounts are per
 * path, and neither seccomp nor Landlock sees names), so the effect is undone instead: a protected
 * name found after the command (protected-scan.ts) that was not there, the same thing, when it
 * started — a new `sub/.git` (folder, gitfile or symlink), a `.vscode` symlink replaced by a real
 * folder — is renamed out of the workspace into a quarantine folder of the user's, with a
 * `moved.json` saying where each came from (the user's way back: the tool result and the notice give the `mv` for each); a symlink that was replaced is put back.
 */
import { chmodSync, constants, copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { mountedElsewhere } from "./foreign-mounts";
import { heldAsStub } from "./stubs";
import { identify, sameEntry, type ProtectedEntry, type ProtectedScan } from "./protected-scan";
import { errorText } from "../../error-text";

export interface Moved {
  from: string;
  to: string;
}

export interface SweepReport {
  moved: Moved[];
  /** Symlinks put back where a command had replaced them. */
  relinked: string[];
  /** What could not be moved aside (left where it is; the user is told). */
  failed: { path: string; error: string }[];
}

const identity = (e: ProtectedEntry) => `${e.dev}:${e.ino}:${e.kind}`;

/** What differs between the scan at the start and the one at the end. */
export function madeByCommand(before: ProtectedScan, after: ProtectedScan): { fresh: ProtectedEntry[]; replacedLinks: ProtectedEntry[] } {
  const byPath = new Map(before.entries.map((e) => [e.path, e]));
  const kept = new Set(before.entries.filter((e) => e.kind !== "symlink").map(identity));
  const fresh = after.entries.filter((e) => {
    const old = byPath.get(e.path);
    if (old && sameEntry(old, e)) return false;
    return e.kind === "symlink" || !kept.has(identity(e));
  });
  const replacedLinks = before.entries.filter((old) => {
    if (old.kind !== "symlink") return false;
    const now = identify(old.path);
    return !now || !sameEntry(old, now);
  });
  return { fresh, replacedLinks };
}

/** A new batch folder's path in the quarantine: when (sortable, a file name's characters) and a random part; `kind` says who moved (the save guard's "save"). */
export function quarantineBatch(quarantineRoot: string, kind?: string): string {
  return join(quarantineRoot, `${new Date().toISOString().replace(/[:.]/g, "-")}${kind ? `-${kind}` : ""}-${randomBytes(4).toString("hex")}`);
}

/**
 * `movedAway`: the identities of what sweeps moved aside (kept by the caller across commands): one
 * found in the workspace again was put back by the user (a rename keeps the inode, and the
 * quarantine is out of the sandbox's reach), so it is left alone even while a command still runs.
 */
export function sweep(before: ProtectedScan, after: ProtectedScan, quarantineRoot: string, movedAway: Set<string> = new Set()): SweepReport {
  const made = madeByCommand(before, after);
  const fresh = made.fresh.filter((e) => !movedAway.has(identity(e)));
  const replacedLinks = made.replacedLinks;
  const report: SweepReport = { moved: [], relinked: [], failed: [] };
  if (fresh.length === 0 && replacedLinks.length === 0) return report;
  const batch = quarantineBatch(quarantineRoot);
  const inUse = mountedElsewhere(fresh.map((e) => e.path));
  const moveAside = (path: string) => {
    try {
      const target = join(batch, String(report.moved.length + 1));
      // Another sandbox's mount point (its stub, filled from here; or one its ledger holds, still
      // being mounted): what is in it goes, not it, as moving it would unmount it there and let that
      // sandbox make the name for real.
      const to = inUse.has(path) || heldAsStub(path) ? moveContentsInto(target, path) : moveInto(target, path);
      report.moved.push({ from: path, to });
      const moved = identify(to);
      if (moved) movedAway.add(identity(moved));
    } catch (error) {
      report.failed.push({ path, error: errorText(error) });
    }
  };
  for (const entry of fresh) moveAside(entry.path);
  for (const link of replacedLinks) {
    // Whatever stands there now (a folder the scan did not reach, a file) goes too, then the link comes back (unless its folder went too).
    if (identify(link.path) && !report.moved.some((m) => m.from === link.path)) moveAside(link.path);
    if (!existsSync(dirname(link.path))) continue;
    try {
      symlinkSync(link.target ?? "", link.path);
      report.relinked.push(link.path);
    } catch (error) {
      report.failed.push({ path: link.path, error: `the symlink could not be put back: ${errorText(error)}` });
    }
  }
  if (report.moved.length > 0) writeFileSync(join(batch, "moved.json"), `${JSON.stringify(report.moved, null, 2)}\n`, { mode: 0o600 });
  return report;
}

/**
 * Moves `path` to `to` (a number in the batch, not its protected name: a quarantine inside a
 * watched tree holds no `.git` for the editor's git to find): a rename, else (another file system)
 * first a rename in place to a name nothing runs, then a copy.
 */
function moveInto(to: string, path: string): string {
  mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
  try {
    renameWritable(path, to);
    return to;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
  }
  const inert = `${path}.pi-quarantine-${randomBytes(4).toString("hex")}`;
  renameWritable(path, inert);
  cpSync(inert, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  rmSync(inert, { recursive: true, force: true });
  return to;
}

/** What `path` holds, moved to `to`, `path` left as the empty folder or file it was. */
function moveContentsInto(to: string, path: string): string {
  mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
  if (!lstatSync(path).isDirectory()) {
    copyFileSync(path, to, constants.COPYFILE_EXCL);
    truncateSync(path, 0);
    return to;
  }
  mkdirSync(to, { mode: 0o700 });
  for (const name of readdirSync(path)) moveInto(join(to, name), join(path, name));
  return to;
}

/** A rename, in a folder the command may have made read-only (withWritableFolder). */
function renameWritable(from: string, to: string): void {
  withWritableFolder(from, () => renameSync(from, to));
}

/**
 * `act` on an entry of a folder (a rename, an unlink); when the command made that folder
 * read-only (`chmod 555 sub` after making `sub/.git`), its owner — the user, as the command ran as
 * the user — gives it write access back, and `act` runs again.
 */
export function withWritableFolder(entry: string, act: () => void): void {
  try {
    act();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM") throw error;
    const parent = dirname(entry);
    chmodSync(parent, lstatSync(parent).mode | 0o700);
    act();
  }
}

/** A path for a shell command line, readable whatever it holds (a newline in a name cannot fake a line of the message). */
export function shellQuote(path: string): string {
  if (!/[\u0000-\u001f\u007f-\u009f'\\]/.test(path)) return `'${path}'`;
  const escaped = [...path].map((c) => {
    const code = c.codePointAt(0) ?? 0;
    if (c === "'" || c === "\\") return `\\${c}`;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) ? `\\x${code.toString(16).padStart(2, "0")}` : c;
  });
  return `$'${escaped.join("")}'`;
}

/** The tool result's and the notice's words. */
export function describeSweep(report: SweepReport): string | undefined {
  if (report.moved.length === 0 && report.relinked.length === 0 && report.failed.length === 0) return undefined;
  const lines = [
    "[sandbox: this command created or replaced protected paths (a nested .git, .vscode, …) that the editor, git or other tools would run outside the sandbox; they were moved aside so that nothing outside runs them. If that was the intent (a git clone, a git init), the user can restore them:",
  ];
  const shown = 20;
  for (const { from, to } of report.moved.slice(0, shown)) lines.push(`  moved ${shellQuote(from)} -> ${shellQuote(to)}  (to restore after checking it: mv -T ${shellQuote(to)} ${shellQuote(from)})`);
  if (report.moved.length > shown) lines.push(`  … and ${report.moved.length - shown} more, each listed with where it came from in ${shellQuote(join(dirname(report.moved[0].to), "moved.json"))}`);
  for (const path of report.relinked) lines.push(`  symlink put back: ${shellQuote(path)}`);
  for (const { path, error } of report.failed) lines.push(`  NOT moved aside (check it before git or the editor runs it): ${shellQuote(path)}: ${error.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?")}`);
  lines.push("]");
  return lines.join("\n");
}

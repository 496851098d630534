/**
 * The mount points bwrap creates on the host for missing protected paths (an empty `.git/` while
 * a sandboxed command runs in a folder that has none). Counted, because sandboxes overlap (a
 * background job keeps one alive): a stub is removed once no sandbox uses it — not before, since
 * removing a mount point on the host unmounts it in every other namespace too — and only while it
 * is still the empty thing bwrap made (the user may have filled it meanwhile). Each process's are
 * also on disk (stub-ledger.ts), so that a process killed holding some does not leave them for
 * good, and other processes do not take them for the user's files.
 */
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { mountedElsewhere } from "./foreign-mounts";
import { ledgerDir, mayBeStub, removeStubsOfDeadProcesses, stubsOfOtherProcesses, writeOwnEntry } from "./stub-ledger";

const users = new Map<string, number>();
let orphansRemoved = false;

/**
 * Removes the stubs of processes that died holding them (once per process). Call before looking
 * at which protected paths are missing: a dead process's stub would pass for the user's own.
 */
export function removeOrphanedStubs(): void {
  if (orphansRemoved) return;
  orphansRemoved = true;
  const dir = ledgerDir();
  if (dir) removeStubsOfDeadProcesses(dir, removeUnused);
}

/** Whether `path` is a mount point a sandbox made, this process's or another live one's (a second host, the editor's). */
export function isStub(path: string): boolean {
  // Only while still empty, this process's too: a forged entry cannot hide a real `.git` full of
  // hooks, and what a writer outside the sandbox put into one (another agent's .npmrc while pi,
  // sandboxed whole, holds it) is a change the review shows.
  return (users.has(path) || (mayBeStub(path) && stubsOfOtherProcesses().has(path))) && isEmpty(path);
}

/**
 * Whether a sandbox holds `path` as its stub (this process's, or another's by its ledger), empty
 * or not: what was put into it is moved out, never it (quarantine.ts). Another sandbox's bwrap is
 * in its ledger before it makes the mount point and mounts on it, so a sweep in that moment, when
 * no mount table shows it yet, must not move the folder away (it would unmount it there later).
 */
export function heldAsStub(path: string): boolean {
  return users.has(path) || (mayBeStub(path) && stubsOfOtherProcesses().has(path));
}

export function acquireStubs(paths: readonly string[]): void {
  if (paths.length === 0) return;
  for (const path of paths) users.set(path, (users.get(path) ?? 0) + 1);
  record();
}

export function releaseStubs(paths: readonly string[]): void {
  if (paths.length === 0) return;
  for (const path of paths) {
    const left = (users.get(path) ?? 1) - 1;
    if (left > 0) {
      users.set(path, left);
      continue;
    }
    users.delete(path);
  }
  record();
  // The last holder removes it: another process's sandbox may mount it where it found it.
  const others = stubsOfOtherProcesses();
  removeUnused(paths.filter((path) => !users.has(path) && !others.has(path)));
}

/**
 * After a worker thread of this process ended without its exit handlers (a session of a pool of
 * hosts terminated while stuck, agent-host/pool/): the stubs of holders that are gone, removed
 * once no sandbox mounts them (the worker's sandboxes are being killed: its watchdog's pipe closed
 * with it, tools/process-groups.ts), looked at every 250 ms for up to 10 s. Else they stayed until
 * a new session or process made stubs, however long the pool lived.
 */
export function removeStubsOfEndedHolders(triesLeft = 40): void {
  const dir = ledgerDir();
  if (!dir || removeStubsOfDeadProcesses(dir, removeUnused) || triesLeft === 0) return;
  setTimeout(() => removeStubsOfEndedHolders(triesLeft - 1), 250).unref();
}

/**
 * Removes the stubs no sandbox mounts any more; returns those still mounted. The ledgers said
 * none holds them; the kernel is asked too (foreign-mounts.ts), as a ledger can be missing or
 * stale, and removing a stub still mounted elsewhere would let that sandbox create the protected
 * name for real.
 */
function removeUnused(paths: readonly string[]): string[] {
  const inUse = mountedElsewhere(paths);
  for (const path of paths) if (!inUse.has(path)) removeIfEmpty(path);
  return [...inUse];
}

function record(): void {
  const dir = ledgerDir();
  if (dir) writeOwnEntry(dir, [...users.keys()]);
}

function isEmpty(path: string): boolean {
  try {
    const info = lstatSync(path);
    return info.isDirectory() ? readdirSync(path).length === 0 : info.isFile() && info.size === 0;
  } catch {
    return false;
  }
}

function removeIfEmpty(path: string): void {
  try {
    if (!isEmpty(path)) return;
    if (lstatSync(path).isDirectory()) rmdirSync(path);
    else unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

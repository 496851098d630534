/**
 * The mount points bwrap creates on the host for missing protected paths (an empty `.git/` while
 * a sandboxed command runs in a folder that has none). Counted, because sandboxes overlap (a
 * background job keeps one alive): a stub is removed once no sandbox uses it — not before, since
 * removing a mount point on the host unmounts it in every other namespace too — and only while it
 * is still the empty thing bwrap made (the user may have filled it meanwhile).
 */
import { readdirSync, rmdirSync, statSync, unlinkSync } from "node:fs";

const users = new Map<string, number>();

export function isStub(path: string): boolean {
  return users.has(path);
}

export function acquireStubs(paths: readonly string[]): void {
  for (const path of paths) users.set(path, (users.get(path) ?? 0) + 1);
}

export function releaseStubs(paths: readonly string[]): void {
  for (const path of paths) {
    const left = (users.get(path) ?? 1) - 1;
    if (left > 0) {
      users.set(path, left);
      continue;
    }
    users.delete(path);
    removeIfEmpty(path);
  }
}

function removeIfEmpty(path: string): void {
  try {
    const info = statSync(path);
    if (info.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
    else if (info.isFile() && info.size === 0) unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

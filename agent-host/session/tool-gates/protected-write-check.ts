/**
 * Protected paths checked again at the moment a write or edit happens, not only when it was asked
 * about. The permission question judges the real path at question time; while the user reads it,
 * anything with write access to the workspace (the model's own sandboxed background job) can swap
 * the file, or a folder above it, for a symlink to `.git/config`, and the approved "write
 * notes.txt" would land there. So right before the file is written: if the path now leads to a
 * protected file, that very file must have been approved (Allow once on the protected question,
 * used up by this write); otherwise the write is refused. In `auto` mode nothing is asked, so
 * nothing is checked, unless a sandbox confines commands (then protected files are asked in `auto`
 * too, every file under a read-only one, and with nobody to ask, refused). What is left: the few microseconds between this check and the
 * open.
 */
import type { PermissionMode } from "../../../shared/protocol";
import { realPathOf } from "../../../shared/node/real-path";
import type { PathGuard } from "../../tools/paths";
import type { ConfiningSandbox } from "./protected-paths";
import { isProtectedPath } from "../../../shared/node/sandbox/protected-match";

/** Real paths of protected files the user allowed once, each good for one write. */
export class ProtectedWriteApprovals {
  private readonly granted = new Map<string, number>();

  grant(realPath: string): void {
    this.granted.set(realPath, (this.granted.get(realPath) ?? 0) + 1);
  }

  /** Uses up one approval of `realPath`; false when there is none. */
  take(realPath: string): boolean {
    const left = this.granted.get(realPath) ?? 0;
    if (left === 0) return false;
    if (left === 1) this.granted.delete(realPath);
    else this.granted.set(realPath, left - 1);
    return true;
  }
}

/** The check the write and edit tools run right before they write. */
export function createProtectedWriteCheck(approvals: ProtectedWriteApprovals, mode: () => PermissionMode, sandbox?: ConfiningSandbox): PathGuard {
  return (absPath, asWritten) => {
    if (mode() === "auto" && !sandbox) return;
    const isProtected = isProtectedPath(absPath);
    if (!isProtected && sandbox !== "read-only") return;
    let real: string;
    try {
      real = realPathOf(absPath);
    } catch {
      real = absPath;
    }
    if (approvals.take(real)) return;
    const what = isProtected ? `the protected file ${real}` : `${real}, in a read-only sandbox`;
    throw new Error(`Refused: ${asWritten} leads to ${what}, which the user did not allow for this write (a symlink changed after the question, or nobody was asked). Nothing was written.`);
  };
}

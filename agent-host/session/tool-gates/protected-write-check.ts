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

/**
 * Protected files the user allowed once: each approval is for one tool call and the real path
 * its question named, good for that call's write only. (Keyed by the path alone, an approved call
 * that failed before writing left an approval another call took: a later write whose file was
 * swapped for a link to it landed there, `host-write-grant-leftover`.)
 */
export class ProtectedWriteApprovals {
  private readonly granted = new Set<string>();

  grant(realPath: string, callId: string): void {
    this.granted.add(`${callId}\0${realPath}`);
  }

  /** Whether this call was allowed to write `realPath` (a call writes once; it may be checked more than once). */
  allows(realPath: string, callId: string | undefined): boolean {
    return callId !== undefined && this.granted.has(`${callId}\0${realPath}`);
  }
}

/** The check the write and edit tools run right before they write. */
export function createProtectedWriteCheck(approvals: ProtectedWriteApprovals, mode: () => PermissionMode, sandbox?: ConfiningSandbox, workspace?: string): PathGuard {
  return (absPath, asWritten, callId) => {
    if (mode() === "auto" && !sandbox) return;
    const isProtected = isProtectedPath(absPath, workspace ? { workspaces: [workspace] } : {});
    if (!isProtected && sandbox !== "read-only") return;
    let real: string;
    try {
      real = realPathOf(absPath);
    } catch {
      real = absPath;
    }
    if (approvals.allows(real, callId)) return;
    const what = isProtected ? `the protected file ${real}` : `${real}, in a read-only sandbox`;
    throw new Error(`Refused: ${asWritten} leads to ${what}, which the user did not allow for this write (a symlink changed after the question, or nobody was asked). Nothing was written.`);
  };
}

import type { Stats } from "node:fs";

/**
 * Modes for what is written about a user's sessions (session files, checkpoint stores, exports):
 * readable by the user alone, as ssh keys are. Given at creation; the umask only takes bits away.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Owned by this user and closed to everyone else (POSIX; Windows' per-user folder has its own ACL). Give it an lstat. */
export function ownedPrivately(stat: Stats): boolean {
  if (process.platform === "win32") return !stat.isSymbolicLink();
  return !stat.isSymbolicLink() && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
}

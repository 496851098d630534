/**
 * A write to a workspace file for an agent whose sandbox keeps places from it, judged on the file
 * really opened (the twin of verified-file.ts's read). Judged by name and then written by name, a
 * job of the agent's flipping a link between a workspace file and `~/.aws/config` walked 129 of
 * 3,000 ACP writes into the latter (a `credential_process` the user's next aws call runs). So the
 * file is opened first (made only where nothing is: O_EXCL, never through a link), and before a
 * byte is written its device and inode must be those of its real path found after the open, that
 * path inside a workspace folder and passing `judge`; a file made here and then refused is removed.
 * Free of vscode (node:fs), so it is unit-tested with real links flipped.
 */
import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { resolvesInside } from "../../shared/node/real-path";

/** Why a write to the real path `real` must not happen (undefined: it may). */
export type WriteJudge = (real: string) => string | undefined;

export async function writeVerified(absPath: string, content: string | Uint8Array, realFolders: readonly string[], judge: WriteJudge, shown: string): Promise<void> {
  await mkdir(dirname(absPath), { recursive: true });
  let handle;
  let made = true;
  try {
    handle = await open(absPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    made = false;
    // Non-blocking: a FIFO does not hold the editor; not truncated before it is judged.
    handle = await open(absPath, constants.O_WRONLY | constants.O_NONBLOCK);
  }
  try {
    const opened = await handle.stat();
    const why = await whyNot(absPath, opened, realFolders, judge, shown);
    if (why !== undefined) {
      if (made) await removeIfSame(absPath, opened);
      throw new Error(why);
    }
    await handle.truncate(0);
    if (typeof content === "string") await handle.write(content, 0, "utf8");
    else await handle.write(content);
  } finally {
    await handle.close();
  }
}

async function whyNot(absPath: string, opened: import("node:fs").Stats, realFolders: readonly string[], judge: WriteJudge, shown: string): Promise<string | undefined> {
  if (!opened.isFile()) return `${shown} is not a regular file.`;
  let real: string;
  try {
    real = await realpath(absPath);
    const now = await stat(real);
    if (now.dev !== opened.dev || now.ino !== opened.ino) return `${shown} changed while it was opened (a link on its way replaced); not written.`;
  } catch {
    return `${shown} changed while it was opened (a link on its way replaced); not written.`;
  }
  if (!resolvesInside(realFolders, real)) return `${shown} leads outside the workspace; not written.`;
  return judge(real);
}

/** Removes the file made for a refused write, if the name still is that file. */
async function removeIfSame(absPath: string, opened: import("node:fs").Stats): Promise<void> {
  try {
    const now = await lstat(absPath);
    if (now.dev === opened.dev && now.ino === opened.ino) await unlink(absPath);
  } catch {
    // gone already
  }
}

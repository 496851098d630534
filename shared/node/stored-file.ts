/**
 * The one way a file of the checkpoint store is read. Agents can write the store (pi sandboxed as
 * a whole records there), so a name in it may be a link (to a secret elsewhere), a FIFO (a read
 * that never returns) or a file that keeps growing: it is opened without following a link and
 * without blocking, checked to be a regular file of at most `maxBytes`, and read to the size it
 * had then, never past it.
 */
import * as fs from "node:fs";

const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

export type StoredFileRefusal = { refused: "missing" | "notAFile" | "tooLarge" };

/** What was read: `content` starts at byte `from` of the file `identity` (device, inode and birth time) names. */
export type StoredFileRead = { content: Buffer; identity: string; from: number } | StoredFileRefusal;

/** Where an earlier read of the same name stopped: read on from there if it is still that file and no shorter. */
export interface ReadOn {
  identity: string;
  offset: number;
}

/** A file's identity: its device, inode and birth time (a file removed and made again at the name often gets the same inode back). */
export function fileIdentity(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.birthtimeMs}`;
}

function refusal(error: unknown): StoredFileRefusal {
  return { refused: (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "notAFile" };
}

/** Where to start and how much to read, or why not to. */
function plan(stat: fs.Stats, maxBytes: number, after: ReadOn | undefined): { identity: string; from: number; length: number } | StoredFileRefusal {
  if (!stat.isFile()) return { refused: "notAFile" };
  if (stat.size > maxBytes) return { refused: "tooLarge" };
  const identity = fileIdentity(stat);
  const from = after && after.identity === identity && stat.size >= after.offset ? after.offset : 0;
  return { identity, from, length: stat.size - from };
}

export function readStoredFile(file: string, maxBytes: number, after?: ReadOn): StoredFileRead {
  let fd: number;
  try {
    fd = fs.openSync(file, FLAGS);
  } catch (error) {
    return refusal(error);
  }
  try {
    const planned = plan(fs.fstatSync(fd), maxBytes, after);
    if ("refused" in planned) return planned;
    const content = Buffer.alloc(planned.length);
    let filled = 0;
    while (filled < content.length) {
      const n = fs.readSync(fd, content, filled, content.length - filled, planned.from + filled);
      if (n === 0) break;
      filled += n;
    }
    return { content: content.subarray(0, filled), identity: planned.identity, from: planned.from };
  } finally {
    fs.closeSync(fd);
  }
}

/** readStoredFile off the event loop's thread (the prune reads every manifest). */
export async function readStoredFileAsync(file: string, maxBytes: number): Promise<StoredFileRead> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, FLAGS);
  } catch (error) {
    return refusal(error);
  }
  try {
    const planned = plan(await handle.stat(), maxBytes, undefined);
    if ("refused" in planned) return planned;
    const content = Buffer.alloc(planned.length);
    let filled = 0;
    while (filled < content.length) {
      const { bytesRead } = await handle.read(content, filled, content.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { content: content.subarray(0, filled), identity: planned.identity, from: 0 };
  } finally {
    await handle.close();
  }
}

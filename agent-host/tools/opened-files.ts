/**
 * The local file system as the tools open it: a file judged after it is opened (its real path read
 * from the descriptor: a link a job the model left running flips between the check and the open
 * leads elsewhere), regular files only and never waiting to open one, folders made and searches
 * started where what was opened was judged. io.ts plugs these into the tools' local I/O.
 */
import { constants } from "node:fs";
import { access, mkdir, open, readdir, readlink, realpath, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";

/**
 * Judges the file or folder really opened (its real path, read from the open descriptor), after the
 * open: a path judged before it is opened can be a link flipped in between by a job the model
 * left running. Throws to refuse it.
 */
export type OpenedCheck = (realPath: string) => void;

export async function pathExists(absPath: string): Promise<boolean> {
  try {
    await access(absPath, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where an open descriptor leads (Linux: /proc/self/fd; elsewhere the path resolved again, which narrows the race but cannot close it). */
async function openedPath(fd: number, absPath: string): Promise<string> {
  return process.platform === "linux" ? readlink(`/proc/self/fd/${fd}`) : realpath(absPath);
}

/** The file's bytes, `opened` judging the file the descriptor really holds before anything is read. */
export async function readFileChecked(absPath: string, opened?: OpenedCheck): Promise<Buffer> {
  const handle = await openRegular(absPath, constants.O_RDONLY);
  try {
    if (opened) opened(await openedPath(handle.fd, absPath));
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Opens a regular file only, without waiting: a FIFO the model made (`mkfifo` in its bash) would
 * hold the open until its other end came, on one of the four threads of the host's I/O pool, for
 * good (Stop ends the tool call, not the open); four such reads and no file of the host's opened
 * again. A device (/dev/zero) would be read without end. (O_NONBLOCK changes nothing for a regular file.)
 */
async function openRegular(absPath: string, flags: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(absPath, flags | constants.O_NONBLOCK);
  } catch (error) {
    // ENXIO: a FIFO opened to write with nobody reading it.
    if ((error as NodeJS.ErrnoException).code === "ENXIO") throw notRegular(absPath);
    throw error;
  }
  const info = await handle.stat().catch(() => undefined);
  if (info?.isFile()) return handle;
  await handle.close();
  // A folder: the error a plain read of one gives.
  if (info?.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${absPath}'`), { code: "EISDIR" });
  throw notRegular(absPath);
}

const notRegular = (absPath: string) => new Error(`${absPath} is not a regular file (a FIFO, a socket or a device): not opened`);

/**
 * Writes the whole file, `opened` judging the file really opened before a byte changes. An existing
 * file is opened as it is; a new one is made only where nothing is (O_EXCL), and one made where
 * `opened` then refuses (a folder on the way flipped to a link) is removed again.
 */
export async function writeFileChecked(absPath: string, content: string, opened?: OpenedCheck): Promise<void> {
  const { handle, made } = await openForWrite(absPath);
  try {
    if (opened) {
      const real = await openedPath(handle.fd, absPath);
      try {
        opened(real);
      } catch (refusal) {
        if (made) await unlink(real).catch(() => undefined);
        throw refusal;
      }
    }
    await handle.truncate(0);
    await handle.writeFile(content, "utf-8");
  } finally {
    await handle.close();
  }
}

/** Opens an existing file to write it, or makes it (`made`) where nothing is; a dangling link is followed to what it names, made there. */
async function openForWrite(absPath: string, depth = 0): Promise<{ handle: FileHandle; made: boolean }> {
  try {
    return { handle: await openRegular(absPath, constants.O_WRONLY), made: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    return { handle: await open(absPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL), made: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST" || depth >= 8) throw error;
  }
  // Something is there now: a link that leads nowhere (followed by hand, so that what is made is
  // known to be ours), or an entry made meanwhile (opened again).
  let target: string;
  try {
    target = resolve(dirname(absPath), await readlink(absPath));
  } catch {
    return openForWrite(absPath, depth + 1);
  }
  return openForWrite(target, depth + 1);
}

/** A folder's names, `opened` judging the folder really opened before it is listed. */
export async function readdirChecked(absPath: string, opened?: OpenedCheck): Promise<string[]> {
  if (!opened || process.platform !== "linux") {
    if (opened) opened(await realpath(absPath));
    return readdir(absPath);
  }
  const handle = await open(absPath, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    opened(await openedPath(handle.fd, absPath));
    return await readdir(`/proc/self/fd/${handle.fd}`);
  } finally {
    await handle.close();
  }
}

/**
 * For a search by an external program: opens the folder or file it starts at, judges it on its
 * real path (`opened`, which gets it), and runs `search` on the open descriptor (Linux; elsewhere
 * undefined: the program is given the path). The descriptor stays open until the search is done.
 */
export async function withOpenedRoot<T>(absPath: string, isDirectory: boolean, opened: OpenedCheck, search: (fd: number | undefined) => Promise<T>): Promise<T> {
  if (process.platform !== "linux") {
    opened(await realpath(absPath));
    return search(undefined);
  }
  const handle = isDirectory ? await open(absPath, constants.O_RDONLY | constants.O_DIRECTORY) : await openRegular(absPath, constants.O_RDONLY);
  try {
    opened(await openedPath(handle.fd, absPath));
    return await search(handle.fd);
  } finally {
    await handle.close();
  }
}

/**
 * `mkdir -p`, each missing folder made in its parent as opened and judged (Linux): made by name, a
 * folder on the way a job flips to a link (`wdir -> ~/.ssh`) had `wdir/authorized_keys/x` make
 * `~/.ssh/authorized_keys` a folder, the file itself refused after.
 */
export async function mkdirChecked(absDir: string, opened?: OpenedCheck): Promise<void> {
  if (!opened || process.platform !== "linux") {
    await mkdir(absDir, { recursive: true });
    return;
  }
  const missing: string[] = [];
  for (let dir = absDir; !(await pathExists(dir)) && dirname(dir) !== dir; dir = dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    const parent = await open(dirname(dir), constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      opened(await openedPath(parent.fd, dirname(dir)));
      await mkdir(`/proc/self/fd/${parent.fd}/${basename(dir)}`).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
    } finally {
      await parent.close();
    }
  }
}

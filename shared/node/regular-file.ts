/**
 * Files that others write (an agent's folder, a repository's config) read without trusting what
 * they are: only a regular file, or a symlink to one. A FIFO there would block a synchronous read
 * of the editor's extension host for good, a device (/dev/zero, /dev/stdin) be read without end.
 * Opened non-blocking so that a FIFO's open returns at once; the check is on what was opened, so
 * a swap between a stat and the open changes nothing.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";

/** The most a foreign settings-like file may hold (a models.json or mcp.json is a few KB). */
export const MAX_FOREIGN_FILE_BYTES = 16 * 1024 * 1024;

/** A descriptor of `file` open for reading; throws as openSync does (ENOENT…), or when it is not a regular file. */
export function openRegularFile(file: string): number {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${file} is not a regular file`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** The text of a regular file of at most `maxBytes`; throws when it is missing, not regular or larger. */
export function readRegularText(file: string, maxBytes = MAX_FOREIGN_FILE_BYTES): string {
  const fd = openRegularFile(file);
  try {
    const { size } = fstatSync(fd);
    if (size > maxBytes) throw new Error(`${file} is larger than ${maxBytes} bytes`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * A session's checkpoint manifest followed as it grows. The review looks at the records at every
 * file event of a run (an `npm install` makes thousands); reading the whole manifest each time made
 * that look grow with the session (issue 31). A manifest is append-only, so each look reads only
 * the bytes appended since the last one, and one `lstat` when nothing was. A manifest replaced or
 * cut short (pruned, or rewritten by an agent that can write the store) is read again whole.
 */
import * as fs from "node:fs";
import type { CheckpointRecord } from "../checkpoints/schema";
import { MAX_MANIFEST_BYTES, parseRecords } from "./checkpoint-store";

export interface ManifestFollower {
  /** The manifest's records so far, in recording order (a new array when it changed). */
  records(): readonly CheckpointRecord[];
}

const NEWLINE = 0x0a;

export function followManifest(file: string): ManifestFollower {
  let records: readonly CheckpointRecord[] = [];
  /** The file read (device and inode), and how many of its bytes were: up to its last complete line. */
  let identity = "";
  let offset = 0;
  const forget = () => {
    records = [];
    identity = "";
    offset = 0;
  };
  return {
    records() {
      const stat = fs.lstatSync(file, { throwIfNoEntry: false });
      if (!stat?.isFile() || stat.size > MAX_MANIFEST_BYTES) {
        forget();
        return records;
      }
      if (`${stat.dev}:${stat.ino}` === identity && stat.size === offset) return records;
      const read = readAppended(file, identity, offset);
      if (!read) {
        forget();
        return records;
      }
      if (read.from === 0 && offset > 0) records = []; // another file, or cut short: read whole
      identity = read.identity;
      const end = read.bytes.lastIndexOf(NEWLINE) + 1; // a line still being appended waits for its end
      offset = read.from + end;
      if (end > 0) records = [...records, ...parseRecords(read.bytes.subarray(0, end).toString("utf8"))];
      return records;
    },
  };
}

/**
 * The bytes of `file` after `offset` when it is still the file `identity` names and no shorter,
 * else all of them; never through a link, never blocking on a FIFO; undefined when it is not a
 * regular file of at most MAX_MANIFEST_BYTES.
 */
function readAppended(file: string, identity: string, offset: number): { identity: string; from: number; bytes: Buffer } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_MANIFEST_BYTES) return undefined;
    const opened = `${stat.dev}:${stat.ino}`;
    const from = opened === identity && stat.size >= offset ? offset : 0;
    const bytes = Buffer.alloc(stat.size - from);
    let filled = 0;
    while (filled < bytes.length) {
      const n = fs.readSync(fd, bytes, filled, bytes.length - filled, from + filled);
      if (n === 0) break;
      filled += n;
    }
    return { identity: opened, from, bytes: bytes.subarray(0, filled) };
  } finally {
    fs.closeSync(fd);
  }
}

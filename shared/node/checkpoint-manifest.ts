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
import { fileIdentity, readStoredFile } from "./stored-file";

export interface ManifestFollower {
  /** The manifest's records so far, in recording order (a new array when it changed). */
  records(): readonly CheckpointRecord[];
}

const NEWLINE = 0x0a;

export function followManifest(file: string): ManifestFollower {
  let records: readonly CheckpointRecord[] = [];
  /** The file read (fileIdentity), and how many of its bytes were: up to its last complete line. */
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
      if (fileIdentity(stat) === identity && stat.size === offset) return records;
      const read = readStoredFile(file, MAX_MANIFEST_BYTES, { identity, offset });
      if ("refused" in read) {
        forget();
        return records;
      }
      if (read.from === 0 && offset > 0) records = []; // another file, or cut short: read whole
      identity = read.identity;
      const end = read.content.lastIndexOf(NEWLINE) + 1; // a line still being appended waits for its end
      offset = read.from + end;
      if (end > 0) records = [...records, ...parseRecords(read.content.subarray(0, end).toString("utf8"))];
      return records;
    },
  };
}

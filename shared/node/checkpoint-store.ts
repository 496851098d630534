/**
 * The checkpoint store on disk (layout in shared/checkpoints/schema.ts): content-addressed
 * objects and one append-only manifest per session. Recording is synchronous, so that a caller
 * can record a file and then change it with nothing in between.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { createAjv } from "../protocol/ajv";
import { CheckpointRecord, DEFAULT_MAX_FILE_BYTES, manifestName, OBJECTS_DIR, SESSIONS_DIR } from "../checkpoints/schema";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private-files";
import { readStoredFile } from "./stored-file";

/** What a file held before a change: its bytes, null when it did not exist, or why it was not kept. */
export type Captured = { content: Buffer | null } | { skipped: "tooLarge" | "unreadable" };

export function captureFile(absPath: string, maxFileBytes: number): Captured {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absPath);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? { content: null } : { skipped: "unreadable" };
  }
  if (!stat.isFile()) return { skipped: "unreadable" };
  if (stat.size > maxFileBytes) return { skipped: "tooLarge" };
  try {
    return { content: fs.readFileSync(absPath) };
  } catch {
    return { skipped: "unreadable" };
  }
}

export function captureText(text: string, maxFileBytes: number): Captured {
  const content = Buffer.from(text, "utf8");
  return content.length > maxFileBytes ? { skipped: "tooLarge" } : { content };
}

export const objectPath = (dir: string, hash: string) => path.join(dir, OBJECTS_DIR, hash);
export const manifestPath = (dir: string, sessionId: string) => path.join(dir, SESSIONS_DIR, manifestName(sessionId));

/** Stores bytes under their sha256 (written once, atomically; an existing copy is touched so pruning keeps it). */
export function storeObject(dir: string, content: Buffer): string {
  const hash = createHash("sha256").update(content).digest("hex");
  const file = objectPath(dir, hash);
  if (fs.existsSync(file)) {
    const now = new Date();
    fs.utimesSync(file, now, now);
    return hash;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(temp, content, { mode: PRIVATE_FILE_MODE });
  fs.renameSync(temp, file);
  return hash;
}

/** An object as read back: the store is written by agents too, so its content is checked against its name. */
export type LoadedObject = { content: Buffer } | { refused: "missing" | "notAFile" | "tooLarge" | "mismatch" };

const HASH = /^[0-9a-f]{64}$/;
/** No object is larger than what recorders keep; a bigger one was not written by them. */
const MAX_OBJECT_BYTES = DEFAULT_MAX_FILE_BYTES;

/**
 * Reads an object: a regular file (not a link, a FIFO or a device: opened without following a
 * link, checked before reading) no larger than a recorder keeps, whose sha256 is its name.
 */
export function loadObject(dir: string, hash: string): LoadedObject {
  if (!HASH.test(hash)) return { refused: "missing" };
  const file = readStoredFile(objectPath(dir, hash), MAX_OBJECT_BYTES);
  if ("refused" in file) return file;
  return createHash("sha256").update(file.content).digest("hex") === hash ? { content: file.content } : { refused: "mismatch" };
}

/** An object's content, or undefined when it is missing or not what its name says (see loadObject). */
export function readObject(dir: string, hash: string): Buffer | undefined {
  const loaded = loadObject(dir, hash);
  return "content" in loaded ? loaded.content : undefined;
}

/** Appends one record to the session's manifest (one short line: an atomic append). */
export function recordCaptured(dir: string, sessionId: string, turn: string, absPath: string, captured: Captured, time = Date.now(), late = false): CheckpointRecord {
  const record: CheckpointRecord =
    "skipped" in captured
      ? { turn, path: absPath, before: null, time, skipped: captured.skipped }
      : { turn, path: absPath, before: captured.content === null ? null : storeObject(dir, captured.content), time, ...(late ? { late } : {}) };
  const file = manifestPath(dir, sessionId);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.appendFileSync(file, `${JSON.stringify(record)}\n`, { mode: PRIVATE_FILE_MODE });
  return record;
}

let validate: ((value: unknown) => boolean) | undefined;
/** A manifest larger than this was not written by a recorder (a record is one short line). */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** The session's records in recording order; unreadable lines are left out. */
export function readRecords(dir: string, sessionId: string): CheckpointRecord[] {
  return readManifest(manifestPath(dir, sessionId));
}

export function readManifest(file: string): CheckpointRecord[] {
  let text: string;
  try {
    const read = readStoredFile(file, MAX_MANIFEST_BYTES);
    if (!("content" in read)) return [];
    text = read.content.toString("utf8");
  } catch {
    return [];
  }
  return parseRecords(text);
}

/** The valid records of a manifest's complete lines; unreadable lines are left out. */
export function parseRecords(text: string): CheckpointRecord[] {
  validate ??= createAjv({ strict: false, validateSchema: false }).compile(CheckpointRecord());
  const records: CheckpointRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (validate(value)) records.push(value as CheckpointRecord);
    } catch {
      // a torn last line (a crash mid-append) is skipped
    }
  }
  return records;
}

/**
 * Records each path once per turn (the first record wins; later ones are not written), for one
 * process. `captured` is read only when the path is new for the turn.
 */
export function createCheckpointRecorder(dir: string, maxFileBytes: number) {
  let current = "";
  const seen = new Set<string>();
  return (
    sessionId: string,
    turn: string,
    absPath: string,
    capture: () => Captured = () => captureFile(absPath, maxFileBytes),
    /** When the content was captured, if earlier than now. */
    time = Date.now(),
    /** Captured when the agent reported the tool call: maybe after the tool ran (see CheckpointRecord.late). */
    late = false,
  ): CheckpointRecord | undefined => {
    const turnKey = `${sessionId}\0${turn}`;
    if (turnKey !== current) {
      current = turnKey;
      seen.clear();
    }
    if (seen.has(absPath)) return undefined;
    const record = recordCaptured(dir, sessionId, turn, absPath, capture(), time, late);
    seen.add(absPath);
    return record;
  };
}
export type CheckpointRecorder = ReturnType<typeof createCheckpointRecorder>;

/**
 * The I/O seams of the tools. Each tool reaches the file system (or a shell) only through one of
 * these interfaces, with a local default here; the editor can plug in its own (an unsaved buffer
 * is just another ReadIo). Also the two helpers every tool shares: abort handling and the
 * per-file queue that keeps concurrent edits of one file in order.
 */
import { constants, type Dirent } from "node:fs";
import { access, readdir, realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { mkdirChecked, pathExists, readdirChecked, readFileChecked, writeFileChecked, type OpenedCheck } from "./opened-files";

export { pathExists, withOpenedRoot, type OpenedCheck } from "./opened-files";

export interface FileInfo {
  isDirectory(): boolean;
  isFile(): boolean;
  size: number;
}

/** read: whole files as bytes (text is decoded by the tool). */
export interface ReadIo {
  exists(absPath: string): Promise<boolean>;
  readFile(absPath: string, opened?: OpenedCheck): Promise<Buffer>;
}

/** write: parent directories (each judged by `opened` where it is made) and whole-file writes. */
export interface WriteIo {
  mkdir(absDir: string, opened?: OpenedCheck): Promise<void>;
  writeFile(absPath: string, content: string, opened?: OpenedCheck): Promise<void>;
}

/** edit: read, check, write back. `access` throws (with a `code`) when the file cannot be edited. */
export interface EditIo {
  access(absPath: string): Promise<void>;
  readFile(absPath: string, opened?: OpenedCheck): Promise<Buffer>;
  writeFile(absPath: string, content: string, opened?: OpenedCheck): Promise<void>;
}

/** ls: directory listing; `stat` follows symlinks. */
export interface ListIo {
  exists(absPath: string): Promise<boolean>;
  stat(absPath: string): Promise<FileInfo>;
  readdir(absPath: string, opened?: OpenedCheck): Promise<string[]>;
}

export type EntryKind = "file" | "dir" | "symlink" | "other";

/** find/grep without an external binary: a directory walk (symlinks are reported, not followed). */
export interface WalkIo {
  stat(absPath: string): Promise<FileInfo>;
  readdir(absPath: string): Promise<{ name: string; kind: EntryKind }[]>;
  /** Small text files (ignore files) and, for grep, the files searched. */
  readFile(absPath: string, opened?: OpenedCheck): Promise<Buffer>;
  exists(absPath: string): Promise<boolean>;
}

export interface ShellExecOptions {
  /** Raw output (stdout and stderr interleaved) as it arrives. */
  onData(chunk: Buffer): void;
  signal: AbortSignal;
  /** Kill after this many milliseconds. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * bash: runs a command line and resolves with its exit code once it and its output are done.
 * Rejects with ShellAbortedError / ShellTimeoutError (after killing everything it started).
 */
export interface ShellIo {
  exec(command: string, cwd: string, options: ShellExecOptions): Promise<{ exitCode: number }>;
}

export class ShellAbortedError extends Error {
  constructor() {
    super("aborted");
  }
}

export class ShellTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timeout:${timeoutMs / 1000}`);
  }
}

/** Whether a search starts at a directory (or a file); "Path not found" when there is nothing there. */
export async function isDirectoryAt(io: Pick<WalkIo, "stat">, absPath: string): Promise<boolean> {
  try {
    return (await io.stat(absPath)).isDirectory();
  } catch {
    throw new Error(`Path not found: ${absPath}`);
  }
}

const kindOf = (entry: Dirent): EntryKind =>
  entry.isSymbolicLink() ? "symlink" : entry.isDirectory() ? "dir" : entry.isFile() ? "file" : "other";

export const localReadIo: ReadIo = { exists: pathExists, readFile: readFileChecked };

export const localWriteIo: WriteIo = { mkdir: mkdirChecked, writeFile: writeFileChecked };

export const localEditIo: EditIo = {
  access: (p) => access(p, constants.R_OK | constants.W_OK),
  readFile: readFileChecked,
  writeFile: writeFileChecked,
};

export const localListIo: ListIo = { exists: pathExists, stat: (p) => stat(p), readdir: readdirChecked };

export const localWalkIo: WalkIo = {
  stat: (p) => stat(p),
  readdir: async (p) => (await readdir(p, { withFileTypes: true })).map((e) => ({ name: e.name, kind: kindOf(e) })),
  readFile: readFileChecked,
  exists: pathExists,
};

export const abortError = (): Error => new Error("Operation aborted");

/**
 * Runs `work` but settles as soon as the signal fires ("Operation aborted"), leaving the work to
 * finish unobserved: for read-only tools, where nothing is left half-done.
 */
export function abortable<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    work().then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const queues = new Map<string, Promise<void>>();
let registrations: Promise<void> = Promise.resolve();

async function queueKey(absPath: string): Promise<string> {
  try {
    return await realpath(absPath);
  } catch {
    return resolve(absPath);
  }
}

/**
 * Runs mutations of the same file one after another (different files still run in parallel), so
 * two edits of one file in the same turn both land. The key is the real path, so links share one.
 */
export async function withFileMutationQueue<T>(absPath: string, fn: () => Promise<T>): Promise<T> {
  // Keys are looked up one call at a time, so calls queue in the order they were made.
  const registration = registrations.then(async () => {
    const key = await queueKey(absPath);
    const previous = queues.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const chained = previous.then(() => mine);
    queues.set(key, chained);
    return { key, previous, chained, release };
  });
  registrations = registration.then(() => undefined);
  const { key, previous, chained, release } = await registration;
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (queues.get(key) === chained) queues.delete(key);
  }
}

/**
 * Which process holds which of bwrap's mount points (stubs.ts), on disk: each process writes the
 * stubs it holds to `<pid>.json` in a folder of the user's alone (a worker thread, to
 * `<pid>-<tid>.json`: the sessions of a shared host process each hold their own, agent-host/pool/). Two readers: the next process
 * to make stubs removes those of processes that are gone (a host SIGKILLed, the editor's window
 * closed hard), and anyone looking at the workspace (the review, another host's scan) tells a
 * stub from the user's own file. Its sandboxes are gone with a dead process (the host kills its
 * commands' process groups however it ends: process-groups.ts; an agent sandboxed whole ends with
 * its stdin), so nothing still mounts a dead process's stubs. `$PI_SANDBOX_LEDGER_DIR` for tests.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join } from "node:path";
import { ownedPrivately, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-files";
import { procStatFields } from "../proc-stat";
import { homeStartupFiles, protectedWorkspaceNames } from "./protected-paths";

let dirFound: string | undefined | null = null; // null: not looked for yet; undefined: none usable

/** The ledger folder, made at first use, when it is usable. */
export function ledgerDir(): string | undefined {
  if (dirFound !== null) return dirFound;
  const runtime = process.env.XDG_RUNTIME_DIR;
  const dir = process.env.PI_SANDBOX_LEDGER_DIR || (runtime && isAbsolute(runtime) ? join(runtime, "pi-sandbox-stubs") : join(tmpdir(), `pi-sandbox-stubs-${process.getuid?.() ?? "user"}`));
  dirFound = privateDir(dir);
  return dirFound;
}

/** `dir`, made if missing, when it is a real folder of this user's that no one else can write (another local user could plant one in /tmp). */
function privateDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  } catch {
    // there already: checked below
  }
  try {
    const info = lstatSync(dir);
    return info.isDirectory() && ownedPrivately(info) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** What `<pid>.json` holds: the process's start time (a pid reused later has another) and its stubs. An array alone: an older version's. */
interface StoredEntry {
  start: string;
  paths: string[];
}
let ownStart: string | undefined;

/** A holder: a process, or one of its threads (`tid` its kernel thread id; the main thread's is the pid). */
interface Holder {
  pid: number;
  tid: number;
}

let ownHolder: Holder | undefined;

/** This thread's holder: a worker's kernel thread id from /proc/thread-self ("<pid>/task/<tid>"). */
function self(): Holder {
  if (ownHolder) return ownHolder;
  let tid = process.pid;
  try {
    const match = /^(\d+)\/task\/(\d+)$/.exec(readlinkSync("/proc/thread-self"));
    if (match && Number(match[1]) === process.pid) tid = Number(match[2]);
  } catch {
    // no /proc: one holder per process
  }
  ownHolder = { pid: process.pid, tid };
  return ownHolder;
}

const entryName = ({ pid, tid }: Holder): string => (tid === pid ? `${pid}.json` : `${pid}-${tid}.json`);

/** This thread's entry: the stubs it holds now (none: the entry goes). */
export function writeOwnEntry(dir: string, held: readonly string[]): void {
  const own = self();
  const file = join(dir, entryName(own));
  try {
    if (held.length === 0) return unlinkSync(file);
    const temp = `${file}.${Date.now()}.tmp`;
    const entry: StoredEntry = { start: (ownStart ??= startTimeOf(own) ?? ""), paths: [...held] };
    writeFileSync(temp, JSON.stringify(entry), { mode: PRIVATE_FILE_MODE });
    renameSync(temp, file);
  } catch {
    // no entry: a crash would leave these stubs, and others would take them for real files
  }
}

// A nested start-up entry's first folder is a stub too where it is missing (`.local` for `.local/bin`: bwrap-args.ts).
const stubNames = new Set([...protectedWorkspaceNames, ...homeStartupFiles].flatMap((entry) => [basename(entry.name), entry.name.split("/")[0]]));

/** Whether a stub could have this path's name (the check before any file is read: file events run through it). */
export const mayBeStub = (path: string): boolean => stubNames.has(basename(path));

/** A glob of the names a stub can have (`{.envrc,.git,…}`), for a file watcher. */
export const stubNameGlob = (): string => `{${[...stubNames].join(",")}}`;

/** Removes the stubs of entries whose process is gone (those no live process holds too), and the entries; false while some are still mounted. */
export function removeStubsOfDeadProcesses(dir: string, remove: (paths: string[]) => readonly string[] | void): boolean {
  const { live, dead } = readEntries(dir);
  const held = new Set(live.flatMap((entry) => entry.paths));
  // `remove` returns those a sandbox still mounts: their entries stay, for a later look.
  const left = new Set(remove([...new Set(dead.flatMap((entry) => entry.paths))].filter((path) => !held.has(path) && mayBeStub(path))) ?? []);
  for (const entry of dead) {
    if (entry.paths.some((path) => left.has(path))) continue;
    try {
      unlinkSync(entry.file);
    } catch {
      // another process cleaned it up first
    }
  }
  return left.size === 0;
}

let snapshot: { mtimeMs: number; paths: Set<string> } | undefined;

/** The stubs other live processes hold, re-read only when the folder changed (an entry is replaced by a rename). */
export function stubsOfOtherProcesses(): ReadonlySet<string> {
  const dir = ledgerDir();
  if (!dir) return new Set();
  let mtimeMs: number;
  try {
    mtimeMs = statSync(dir).mtimeMs;
  } catch {
    return new Set();
  }
  if (snapshot?.mtimeMs !== mtimeMs) {
    const own = self();
    const paths = readEntries(dir).live.filter((entry) => entry.pid !== own.pid || entry.tid !== own.tid).flatMap((entry) => entry.paths);
    snapshot = { mtimeMs, paths: new Set(paths) };
  }
  return snapshot.paths;
}

interface Entry extends Holder {
  file: string;
  paths: string[];
}

function readEntries(dir: string): { live: Entry[]; dead: Entry[] } {
  const live: Entry[] = [];
  const dead: Entry[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { live, dead };
  }
  for (const name of names) {
    const match = /^(\d+)(?:-(\d+))?\.json$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    const tid = match[2] === undefined ? pid : Number(match[2]);
    const { start, paths } = readEntry(join(dir, name));
    const entry = { file: join(dir, name), pid, tid, paths };
    // Our own pid's entry may be a dead process's that had it before (its start time says so).
    (isAlive(entry, start) ? live : dead).push(entry);
  }
  return { live, dead };
}

/** An entry is a short list: a larger file is no entry of ours. */
const MAX_ENTRY_BYTES = 256 * 1024;

function readEntry(file: string): { start?: string; paths: string[] } {
  let fd: number | undefined;
  try {
    // Not through a symlink (to /dev/zero), not blocking on a FIFO: a regular file of a sane size only.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_ENTRY_BYTES) return { paths: [] };
    const parsed: unknown = JSON.parse(readFileSync(fd, "utf8"));
    const stored = Array.isArray(parsed) ? { paths: parsed } : (parsed as Partial<Record<keyof StoredEntry, unknown>> | null);
    const paths = Array.isArray(stored?.paths) ? stored.paths.filter((p): p is string => typeof p === "string" && isAbsolute(p)) : [];
    return typeof stored?.start === "string" && stored.start ? { start: stored.start, paths } : { paths };
  } catch {
    return { paths: [] };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether the process (or thread) that wrote an entry still runs: its pid, and where known its
 * start time (the pid may have been given to another since). A worker's entry lives while its
 * thread does: a session of a shared process that ended without its exit handlers (a terminated
 * worker) leaves stubs for the next one to remove, as a dead process does.
 */
function isAlive(holder: Holder, start: string | undefined): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (holder.tid !== holder.pid && existsSync(`/proc/${holder.pid}/task`) && !existsSync(`/proc/${holder.pid}/task/${holder.tid}`)) return false;
  const now = start === undefined ? undefined : startTimeOf(holder);
  return now === undefined || now === start;
}

/** A process's (or thread's) start time, in clock ticks since boot (/proc/…/stat's 22nd field); undefined where there is no /proc. */
function startTimeOf({ pid, tid }: Holder): string | undefined {
  return procStatFields(tid === pid ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`)?.[19] || undefined;
}

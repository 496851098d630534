/**
 * The mount points bwrap creates on the host for missing protected paths (an empty `.git/` while
 * a sandboxed command runs in a folder that has none). Counted, because sandboxes overlap (a
 * background job keeps one alive): a stub is removed once no sandbox uses it — not before, since
 * removing a mount point on the host unmounts it in every other namespace too — and only while it
 * is still the empty thing bwrap made (the user may have filled it meanwhile).
 *
 * A process killed before it released its stubs (the editor's window closed hard, the host
 * SIGKILLed) would leave them in the user's folder for good, so each process keeps a ledger of the
 * stubs it holds (`<pid>.json`, in a folder of the user's alone); the next process to make stubs
 * removes those of ledgers whose process is gone, before it looks at what is missing. Its
 * sandboxes are gone with it (the host kills its commands' process groups however it ends:
 * process-groups.ts; an agent sandboxed whole ends with its stdin), so nothing still mounts them.
 * (`--die-with-parent` would not do: it ends a command's background jobs with the command.)
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join } from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-files";
import { homeStartupFiles, protectedWorkspaceNames } from "./protected-paths";

const users = new Map<string, number>();
let ledgerDir: string | undefined | null = null; // null: not looked for yet; undefined: none usable

/**
 * Removes the stubs of processes that died holding them (once per process). Call before looking
 * at which protected paths are missing: a dead process's stub would pass for the user's own.
 */
export function removeOrphanedStubs(): void {
  ledger();
}

export function isStub(path: string): boolean {
  return users.has(path);
}

export function acquireStubs(paths: readonly string[]): void {
  if (paths.length === 0) return;
  const dir = ledger();
  for (const path of paths) users.set(path, (users.get(path) ?? 0) + 1);
  if (dir) writeLedger(dir);
}

export function releaseStubs(paths: readonly string[]): void {
  if (paths.length === 0) return;
  for (const path of paths) {
    const left = (users.get(path) ?? 1) - 1;
    if (left > 0) {
      users.set(path, left);
      continue;
    }
    users.delete(path);
    removeIfEmpty(path);
  }
  const dir = ledger();
  if (dir) writeLedger(dir);
}

/** The ledger folder (made, and the stubs of dead processes removed, at the first use); `$PI_SANDBOX_LEDGER_DIR` for tests. */
function ledger(): string | undefined {
  if (ledgerDir !== null) return ledgerDir;
  const runtime = process.env.XDG_RUNTIME_DIR;
  const dir = process.env.PI_SANDBOX_LEDGER_DIR || (runtime && isAbsolute(runtime) ? join(runtime, "pi-sandbox-stubs") : join(tmpdir(), `pi-sandbox-stubs-${process.getuid?.() ?? "user"}`));
  ledgerDir = privateDir(dir);
  if (ledgerDir) removeStubsOfDeadProcesses(ledgerDir);
  return ledgerDir;
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
    const uid = process.getuid?.();
    if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function writeLedger(dir: string): void {
  const file = join(dir, `${process.pid}.json`);
  try {
    if (users.size === 0) return unlinkSync(file);
    const temp = `${file}.${Date.now()}.tmp`;
    writeFileSync(temp, JSON.stringify([...users.keys()]), { mode: PRIVATE_FILE_MODE });
    renameSync(temp, file);
  } catch {
    // no ledger: a crash would leave these stubs, as before it existed
  }
}

const stubNames = new Set([...protectedWorkspaceNames, ...homeStartupFiles].map((entry) => basename(entry.name)));

function removeStubsOfDeadProcesses(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const held = new Set<string>();
  const orphaned: { ledger: string; paths: string[] }[] = [];
  for (const name of names) {
    const match = /^(\d+)\.json$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    const paths = readLedger(join(dir, name));
    if (pid !== process.pid && !isAlive(pid)) orphaned.push({ ledger: join(dir, name), paths });
    else for (const path of paths) held.add(path);
  }
  for (const { ledger: file, paths } of orphaned) {
    for (const path of paths) if (!held.has(path) && stubNames.has(basename(path))) removeIfEmpty(path);
    try {
      unlinkSync(file);
    } catch {
      // another process cleaned it up first
    }
  }
}

function readLedger(file: string): string[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string" && isAbsolute(p)) : [];
  } catch {
    return [];
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeIfEmpty(path: string): void {
  try {
    const info = lstatSync(path);
    if (info.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
    else if (info.isFile() && info.size === 0) unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

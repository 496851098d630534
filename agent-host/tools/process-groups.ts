/**
 * The process groups the host's shells run in, and everything left in them: a command's
 * background processes (`cmd &`, `nohup cmd &`, a subshell's orphan) stay while the host lives (a
 * dev server started by one command serves the next) and are killed when it ends, however it
 * ends. On exit, error or SIGTERM the host kills them itself; for SIGKILL a watchdog does: a tiny
 * `sh` (no second Node) that reads "+ pgid" / "- pgid" lines from a pipe and, once the pipe closes
 * because the host is gone, kills the groups still listed. Only `setsid` daemons escape (they
 * leave the group on purpose).
 */
import type { ChildProcessByStdio } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import { forgetGroup, hasLiveMember } from "./group-members";
import { childProcess } from "./lazy-node";

const WATCHDOG_SCRIPT = `g=" "
while read -r op p; do
  case "$op" in
    +) g="$g$p " ;;
    -) n=" "; for q in $g; do [ "$q" = "$p" ] || n="$n$q "; done; g="$n" ;;
  esac
done
for q in $g; do kill -s KILL -- "-$q" 2>/dev/null; done`;

/** Tracked groups, each with what to do once it is gone (a sandbox's clean-up). */
const groups = new Map<number, (() => void) | undefined>();
let watchdog: Writable | undefined;
let started = false;
let pruneTimer: NodeJS.Timeout | undefined;

function startWatchdog(): void {
  started = true;
  process.on("exit", () => {
    for (const [pgid, onGone] of groups) {
      killGroup(pgid);
      onGone?.();
    }
    groups.clear();
  });
  if (process.platform === "win32") return;
  try {
    const child = childProcess().spawn("/bin/sh", ["-c", WATCHDOG_SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", () => (watchdog = undefined));
    child.unref();
    // Neither the child nor its pipe may keep the host's event loop alive.
    (child.stdin as Socket).unref();
    child.stdin.on("error", () => (watchdog = undefined));
    watchdog = child.stdin;
  } catch {
    watchdog = undefined;
  }
}

/** True while some process is in group `pgid`, zombies aside (group-members.ts). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return hasLiveMember(pgid);
}

function pruneEmptyGroups(): void {
  for (const [pgid, onGone] of groups) {
    if (groupAlive(pgid)) continue;
    groups.delete(pgid);
    forgetGroup(pgid);
    watchdog?.write(`- ${pgid}\n`);
    onGone?.();
  }
  watchLingeringGroups();
}

/** While a group with a clean-up lingers (background jobs, a sandbox's init), look again now and then. */
function watchLingeringGroups(): void {
  const waiting = [...groups.values()].some(Boolean);
  if (waiting && !pruneTimer) {
    pruneTimer = setInterval(pruneEmptyGroups, 250);
    pruneTimer.unref();
  } else if (!waiting && pruneTimer) {
    clearInterval(pruneTimer);
    pruneTimer = undefined;
  }
}

export interface TrackedChild {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Call when the child itself has ended (see trackProcessGroup). */
  release(): void;
}

/**
 * The one door for a command the host starts: in a process group of its own (stdin closed,
 * output piped), tracked. The watchdog is started first: spawned after the command, it left a
 * window of milliseconds (spawning it) where a SIGKILLed host lost the command for good.
 */
export function spawnTracked(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; signal?: AbortSignal },
  onGone?: () => void,
): TrackedChild {
  if (!started) startWatchdog();
  const child = childProcess().spawn(file, args, {
    ...options,
    detached: process.platform !== "win32",
    stdio: ["ignore", "pipe", "pipe"],
    windowsHide: true,
  });
  // The group outlives the child when it left something in the background: `onGone` (a sandbox's clean-up) waits for the group.
  const release = child.pid ? trackProcessGroup(child.pid, onGone) : (onGone?.(), () => undefined);
  return { child, release };
}

/**
 * Tracks the group of a detached child (its pid is the pgid). Returns `release`, to call when the
 * child itself has ended: the group is forgotten once nothing is left in it, else kept until the
 * host ends. `onGone` runs once the group is gone (or killed as the host ends).
 */
export function trackProcessGroup(pgid: number, onGone?: () => void): () => void {
  if (!started) startWatchdog();
  pruneEmptyGroups();
  groups.set(pgid, onGone);
  watchdog?.write(`+ ${pgid}\n`);
  // Emptied groups are forgotten whenever a shell starts or ends: the fewer stale ids are kept, the
  // smaller the chance that one is reused by an unrelated group by the time the host ends.
  return pruneEmptyGroups;
}

/** Kills a detached child's whole process group (SIGKILL); just the child if that fails. */
export function killGroup(pid: number): void {
  if (process.platform === "win32") {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
    return;
  }
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

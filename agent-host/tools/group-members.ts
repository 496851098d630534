/**
 * Whether a process group still has a live member, zombies aside. `kill(-pgid, 0)` succeeds
 * while a zombie of the group is unreaped, and bubblewrap leaves one behind every sandboxed
 * command: its outer process exits on its inner init's status, before reaping it, so the init is
 * reparented to pid 1, which reaps it when it gets to it (1-2 s on a firecracker VM; never in a
 * container whose pid 1 does not reap). Until then the group looked alive and the sandbox's
 * placeholders stayed in the workspace. A zombie whose process still has threads running is no
 * zombie (threadsLeft). Linux only (elsewhere every member counts).
 */
import { readdirSync } from "node:fs";
import { procStatFields } from "../../shared/node/proc-stat";

/** A member seen alive per group: looked at first, so a group with a dev server costs one read per check. */
const witnesses = new Map<number, number>();

/** The state letter and process group of `pid`, from /proc (undefined when it is gone). */
function stateOf(pid: number): { state: string; pgid: number } | undefined {
  const fields = procStatFields(`/proc/${pid}/stat`);
  return fields && { state: fields[0] ?? "", pgid: Number(fields[2]) };
}

/**
 * A zombie leader may be the main thread of a process whose other threads run (it ended with
 * pthread_exit): /proc/<pid>/stat says "Z" for the leader alone, the threads are in its task/.
 */
function threadsLeft(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).length > 1;
  } catch {
    return false;
  }
}

const isLiveMember = (pid: number, pgid: number): boolean => {
  const info = stateOf(pid);
  if (info === undefined || info.pgid !== pgid || info.state === "X") return false;
  return info.state !== "Z" || threadsLeft(pid);
};

/** True when group `pgid` has a member that is not a zombie (true too when /proc cannot say). */
export function hasLiveMember(pgid: number): boolean {
  if (process.platform !== "linux") return true;
  const witness = witnesses.get(pgid);
  if (witness !== undefined && isLiveMember(witness, pgid)) return true;
  witnesses.delete(pgid);
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const name of pids) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (isLiveMember(pid, pgid)) {
      witnesses.set(pgid, pid);
      return true;
    }
  }
  return false;
}

/** Forgets what was seen of a group that is gone. */
export function forgetGroup(pgid: number): void {
  witnesses.delete(pgid);
}

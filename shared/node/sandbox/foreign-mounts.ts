/**
 * Which paths are mount points in another mount namespace: a sandbox (ours, another host's, the
 * editor's) still using a stub as its read-only mount. Removing such a stub on the host unmounts
 * it in that sandbox too, which could then create the protected name for real. The ledgers
 * (stub-ledger.ts) say who holds what, but they can be missing (their folder taken by another
 * user), stale (a pid reused, a folder's mtime that did not move) or apart (two processes with
 * different runtime dirs); the kernel's own list cannot. Linux only: elsewhere, nothing is found.
 *
 * Cost: one readlink per process and one mountinfo per other namespace: ~1 ms at 100 processes,
 * ~5 ms at 1,000 (median of 20; 10 ms the slowest), once per command that ends holding a stub.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** The paths of `paths` that some other mount namespace has a mount on. */
export function mountedElsewhere(paths: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (paths.length === 0 || process.platform !== "linux") return found;
  const wanted = new Set(paths);
  let own: string;
  let pids: string[];
  try {
    own = readlinkSync("/proc/self/ns/mnt");
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  const seen = new Set([own]);
  for (const pid of pids) {
    let ns: string;
    try {
      ns = readlinkSync(`/proc/${pid}/ns/mnt`);
    } catch {
      continue; // gone, or not ours to look at (another user's: its mounts are not on our stubs)
    }
    if (seen.has(ns)) continue;
    // A namespace is done once one of its processes' mount table was read: the first one found may
    // end before that (a job's short-lived `sleep`), and another of that namespace must be asked.
    const points = mountPoints(pid);
    if (points === undefined) continue;
    seen.add(ns);
    for (const point of points) if (wanted.has(point)) found.add(point);
    if (found.size === wanted.size) break;
  }
  return found;
}

/** The mount points of a process's namespace (mountinfo's fifth field, its \ooo escapes undone); undefined if it ended. */
function mountPoints(pid: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/mountinfo`, "utf8");
  } catch {
    return undefined;
  }
  // A process that ended between the two looks has an empty table (a zombie): ask another.
  if (text === "") return undefined;
  return text.split("\n").flatMap((line) => {
    const point = line.split(" ")[4];
    return point ? [point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)))] : [];
  });
}

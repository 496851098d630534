// The processes under code-server, read from /proc: the extension host, the agents under it,
// their CPU time and resident memory.
import { spawn } from "node:child_process";
import * as fs from "node:fs";

const CLOCK_TICKS_PER_S = 100;

function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(Number(entry))[1]) === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Every process under `pid`, with its command line. */
export function descendants(pid: number): { pid: number; cmdline: string }[] {
  const out: { pid: number; cmdline: string }[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of childrenOf(queue.shift()!)) {
      try {
        out.push({ pid: child, cmdline: fs.readFileSync(`/proc/${child}/cmdline`, "utf8").replace(/\0/g, " ") });
      } catch {
        continue; // gone meanwhile
      }
      queue.push(child);
    }
  }
  return out;
}

/** The extension host process under code-server `serverPid` (its command line names `extensionHost`). */
export function extensionHostPid(serverPid: number): number | undefined {
  return descendants(serverPid).find((p) => p.cmdline.includes("extensionHost"))?.pid;
}

/** User + system CPU time of a process, ms. */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

/** Resident memory of a process, MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** The RSS of a bare Node process of binary `node` (idle, after start-up), MB. */
export async function bareNodeRssMb(node: string): Promise<number> {
  const child = spawn(node, ["-e", "setTimeout(() => {}, 5000)"], { stdio: "ignore" });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return rssMb(child.pid!);
  } finally {
    child.kill();
  }
}

/** The CPU time (ms) of every process under each root (the root included), by pid: a snapshot to diff with `cpuSpent`. */
export function cpuSnapshot(roots: number[]): Map<number, { cmdline: string; cpuMs: number }> {
  const out = new Map<number, { cmdline: string; cpuMs: number }>();
  for (const root of roots) {
    for (const p of [{ pid: root, cmdline: readCmdline(root) }, ...descendants(root)]) {
      try {
        out.set(p.pid, { cmdline: p.cmdline, cpuMs: cpuMs(p.pid) });
      } catch {
        continue; // gone meanwhile
      }
    }
  }
  return out;
}

function readCmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** CPU spent between two snapshots, summed per group (`groupOf` names a process's group from its command line and pid). A process that started meanwhile counts whole; one that ended is missing. */
export function cpuSpent<G extends string>(before: Map<number, { cmdline: string; cpuMs: number }>, after: Map<number, { cmdline: string; cpuMs: number }>, groupOf: (pid: number, cmdline: string) => G): Partial<Record<G, number>> {
  const out: Partial<Record<G, number>> = {};
  for (const [pid, now] of after) {
    const group = groupOf(pid, now.cmdline);
    out[group] = (out[group] ?? 0) + now.cpuMs - (before.get(pid)?.cpuMs ?? 0);
  }
  return out;
}

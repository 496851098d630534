/**
 * Holds every sandboxed process this process started still, for the moment the editor acts on a
 * workspace path by name (VS Code's save opens the path it has, following links). A sandboxed
 * command can write the workspace, so it can flip a name there to a link to `~/.bashrc` between
 * a check of the path and the write: stopped, it cannot. "Sandboxed" is a descendant in another
 * pid namespace (bubblewrap's `--unshare-pid`: the bundled host's commands and their jobs, pi or
 * omp sandboxed whole, the home keeper); orphans there stay below the namespace's first process,
 * so none leaves the tree. A process that starts sandboxes (the bundled host, which would start a
 * new command meanwhile, its bwrap half-way through starting one) is stopped whole with what is
 * below it: `starter` names it among this process's children by its arguments. SIGSTOP, then
 * SIGCONT to the ones this stopped (same start time), only. A sandboxed process can wake a
 * stopped one (SIGCONT, or a ptrace of its own): one seen stopped that runs again (its threads'
 * CPU time grows, or it leaves the stop), or one running again after two stops that are not
 * pending, was woken by a command, and is killed; the hold is
 * complete once a pass finds every process stopped as the pass before left it. A sandbox not held
 * within the budget (a process that forks and exits all the time, so that each pass finds a new
 * pid; a fork storm) is killed whole, by its namespace's first process: held or gone, nothing of
 * it writes during the editor's act.
 */
import { promises as fs, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { procStatFieldsAsync as statFields } from "../proc-stat";

export interface Frozen {
  /** Processes stopped (and to resume). */
  readonly stopped: number;
  /** Processes killed for running again after they were stopped (woken by another command), and sandboxes killed whole for not holding still in time. */
  readonly killed: number;
  /** Every sandboxed descendant was seen stopped (or gone) in one pass (false: not even once their sandboxes were killed: a write stuck in the kernel). */
  readonly complete: boolean;
  thaw(): void;
}

interface Proc {
  pid: number;
  ppid: number;
  start: string;
}

const NOTHING: Frozen = { stopped: 0, killed: 0, complete: true, thaw: () => undefined };

export interface FreezeOptions {
  /** Whose descendants (default: this process). */
  root?: number;
  /** A child of `root` that starts sandboxes, by its arguments: stopped with all below it. */
  starter?: (argv: readonly string[]) => boolean;
  /** How long to try (default 800 ms: 1,500 processes are held in about 1.2 s here); then the sandboxes not held are killed, and waited for up to KILL_GRACE_MS. */
  budgetMs?: number;
}

/** Stops the sandboxed descendants of `root` and the starters' trees, and waits until each is seen stopped. Never throws. */
export async function freezeSandboxed(options: FreezeOptions = {}): Promise<Frozen> {
  const { root = process.pid, starter, budgetMs = 800 } = options;
  if (process.platform !== "linux") return NOTHING;
  const ownNs = await pidNamespace(root);
  if (!ownNs) return NOTHING;
  const stopped = new Map<number, string>();
  const thaw = () => {
    for (const [pid, start] of stopped) {
      // Only a process still the one stopped: its pid may have been reused.
      void startTime(pid).then((now) => {
        if (now === start) signal(pid, "SIGCONT");
      });
    }
    stopped.clear();
  };
  /** CPU time of each process when seen stopped. */
  const stillAt = new Map<number, number>();
  /** SIGSTOPs sent to each process. */
  const sends = new Map<number, number>();
  let killed = 0;
  let complete = false;
  /** The namespaces last found (their first processes). */
  let namespaces = new Set<number>();
  /** One look at every process to hold: stops the running ones; the first processes of the namespaces of those not held yet (none: all held as the pass before left them). */
  const pass = async (deadline: number): Promise<Set<number> | "late"> => {
    const unsettled = new Set<number>();
    const look = async () => {
      const found = await toStop(root, ownNs, starter);
      namespaces = new Set(found.map(({ init }) => init));
      // Read at once (hundreds of processes, each a few reads: one after the other, a pass took over 400 ms).
      return Promise.all(
        found.map(async ({ proc, init }) => {
          const now = await threadsOf(proc.pid);
          const pending = now && !now.stopped && stopped.has(proc.pid) && (now.waiting || (await stopPending(proc.pid)));
          return { proc, init, now, pending };
        }),
      );
    };
    // Thousands of processes take longer than the budget to read: all their namespaces count as not held.
    const seen = await Promise.race([look(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), Math.max(0, deadline - performance.now())))]);
    if (!seen) return "late"; // what it reads after is not acted on
    for (const { proc, init, now, pending } of seen) {
      if (!now) continue; // gone
      const before = stillAt.get(proc.pid);
      if (before !== undefined && (!now.stopped || now.cpu > before)) {
        // Woken after it stopped: only another command does that, to slip past the hold.
        signal(proc.pid, "SIGKILL");
        stillAt.delete(proc.pid);
        killed++;
        unsettled.add(init);
        continue;
      }
      if (now.stopped) {
        if (before === undefined) unsettled.add(init); // stopped now: confirmed by the next pass
        stillAt.set(proc.pid, now.cpu);
        continue;
      }
      unsettled.add(init);
      // Waiting in the kernel (D) once signalled, or not yet scheduled since: it stops before it runs its own code again.
      if (pending) continue;
      const sent = (sends.get(proc.pid) ?? 0) + 1;
      if (sent > 2) {
        // Stopped twice and running again each time, its stop not pending: another command keeps waking it.
        signal(proc.pid, "SIGKILL");
        killed++;
        continue;
      }
      sends.set(proc.pid, sent);
      if (!stopped.has(proc.pid)) stopped.set(proc.pid, proc.start);
      signal(proc.pid, "SIGSTOP");
    }
    return unsettled;
  };
  try {
    let deadline = performance.now() + budgetMs;
    for (let round = 0; round < 2 && !complete; round++) {
      let unsettled: Set<number> | "late" = "late";
      while (performance.now() < deadline) {
        unsettled = await pass(deadline);
        if (unsettled !== "late" && unsettled.size === 0) {
          complete = true;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      if (complete || round > 0) break;
      // The budget ran out before a pass ended (thousands of processes): every sandbox counts as not
      // held. Found from our own processes down, not by waiting for the listing of all (it took
      // 1.6 s more with 2,500 processes on a loaded machine, and VS Code waits 1.5 s for a save).
      if (unsettled === "late") unsettled = new Set([...namespaces, ...sandboxInits(root, ownNs)]);
      // Not held in time: processes that keep changing pid (fork, the parent exits), a fork
      // storm, a write stuck in the kernel. A command that cannot be held could still flip the
      // path, so its whole sandbox ends: killing a pid namespace's first process kills all in it,
      // and nothing new can start there. (A starter's own process, in this namespace, is ours: left.)
      for (const init of unsettled) {
        if (init === NOT_SANDBOXED) continue;
        signal(init, "SIGKILL");
        killed++;
      }
      deadline = performance.now() + KILL_GRACE_MS;
    }
  } catch {
    // /proc unreadable midway: whatever was stopped is resumed by thaw.
  }
  return { stopped: stopped.size, killed, complete, thaw };
}

/** How long the processes of a namespace killed for not holding still are waited for, to be gone. */
const KILL_GRACE_MS = 300;

/** The `init` of a starter's process in this process's own namespace (ours: never killed whole). */
const NOT_SANDBOXED = 0;

/**
 * The descendants of `root` in a pid namespace other than `ownNs`, and the starters' whole trees;
 * each with the first process of its namespace (`init`; NOT_SANDBOXED in `ownNs`).
 */
async function toStop(root: number, ownNs: string, starter: FreezeOptions["starter"]): Promise<{ proc: Proc; init: number }[]> {
  const procs = await processes();
  const children = new Map<number, Proc[]>();
  for (const proc of procs) {
    const siblings = children.get(proc.ppid);
    if (siblings) siblings.push(proc);
    else children.set(proc.ppid, [proc]);
  }
  const found: { proc: Proc; init: number }[] = [];
  // Breadth first: parents before children.
  const below = (children.get(root) ?? []).map((proc) => ({ proc, top: proc }));
  for (let i = 0; i < below.length; i++) {
    const { proc, top } = below[i]!;
    for (const child of children.get(proc.pid) ?? []) below.push({ proc: child, top });
  }
  const whole = new Set<number>();
  if (starter) await Promise.all((children.get(root) ?? []).map(async (proc) => void (starter(await argvOf(proc.pid)) && whole.add(proc.pid))));
  // Parents before children (breadth first). A sandbox makes no namespace of its own (no
  // capability, no user namespace): only a process whose parent is in this one can start another
  // (bwrap's first process inside), and all below it are in that one. Read there only: thousands
  // of readlinks made a pass longer than the budget.
  const inits = new Map<number, number>([[root, NOT_SANDBOXED]]);
  for (let i = 0; i < below.length; ) {
    // The next stretch whose parents are known: their namespaces read at once.
    const batch: { proc: Proc; top: Proc }[] = [];
    for (; i < below.length && inits.has(below[i]!.proc.ppid); i++) batch.push(below[i]!);
    if (batch.length === 0) break;
    const atBoundary = batch.filter(({ proc }) => inits.get(proc.ppid) === NOT_SANDBOXED);
    const ns = new Map(await Promise.all(atBoundary.map(async ({ proc }) => [proc.pid, await pidNamespace(proc.pid)] as const)));
    for (const { proc, top } of batch) {
      const parentInit = inits.get(proc.ppid) ?? NOT_SANDBOXED;
      const own = ns.get(proc.pid);
      // Gone meanwhile (no namespace read): as its parent's.
      const init = parentInit !== NOT_SANDBOXED ? parentInit : own === undefined || own === ownNs ? NOT_SANDBOXED : proc.pid;
      inits.set(proc.pid, init);
      if (whole.has(top.pid) || init !== NOT_SANDBOXED) found.push({ proc, init });
    }
  }
  return found;
}

/**
 * The first process of each sandbox below `root` (the first in a pid namespace other than
 * `ownNs`), found through the children lists of `root` and its descendants in `ownNs` only: a few
 * reads, however many processes run inside the sandboxes. Read synchronously: a late pass's reads
 * of thousands of processes still fill libuv's threads, and these would wait behind all of them.
 */
function sandboxInits(root: number, ownNs: string): number[] {
  const inits: number[] = [];
  let level = [root];
  for (let depth = 0; level.length > 0 && depth < 64; depth++) {
    const children = level.flatMap(childrenOf);
    level = [];
    for (const pid of children) {
      const ns = pidNamespaceNow(pid);
      if (ns === ownNs) level.push(pid);
      else if (ns !== undefined) inits.push(pid);
    }
  }
  return inits;
}

/** The children of every thread of `pid` (the kernel's list: no walk of /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/children`, "latin1").split(" ").filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

function pidNamespaceNow(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

async function argvOf(pid: number): Promise<string[]> {
  try {
    return (await fs.readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

async function processes(): Promise<Proc[]> {
  const pids = (await fs.readdir("/proc")).filter((name) => /^\d+$/.test(name)).map(Number);
  const read = await Promise.all(pids.map(async (pid) => ({ pid, fields: await statFields(`/proc/${pid}/stat`) })));
  return read.flatMap(({ pid, fields }) => (fields ? [{ pid, ppid: Number(fields[1]), start: fields[19] ?? "" }] : []));
}

/**
 * The state of `pid`'s threads: all stopped (or gone), some waiting in the kernel, and the CPU
 * time they have used (ns; schedstat, 0 where the kernel keeps none). A leader shown as a zombie
 * can still have live threads (it called pthread_exit), so the threads are read, not the leader.
 */
async function threadsOf(pid: number): Promise<{ stopped: boolean; waiting: boolean; cpu: number } | undefined> {
  let tids: string[];
  try {
    tids = await fs.readdir(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const threads = await Promise.all(
    tids.map(async (tid) => {
      const [state, schedstat] = await Promise.all([statFields(`/proc/${pid}/task/${tid}/stat`).then((f) => f?.[0]), fs.readFile(`/proc/${pid}/task/${tid}/schedstat`, "latin1").catch(() => "")]);
      return { state, cpu: Number(schedstat.split(" ")[0]) || 0 };
    }),
  );
  const held = (state: string | undefined) => state === undefined || state === "T" || state === "t" || state === "Z" || state === "X";
  return {
    stopped: threads.every((t) => held(t.state)),
    waiting: threads.every((t) => held(t.state) || t.state === "D"),
    cpu: threads.reduce((sum, t) => sum + t.cpu, 0),
  };
}

/** A SIGSTOP sent and not yet taken (the process has not run since, or is waiting in the kernel). */
async function stopPending(pid: number): Promise<boolean> {
  try {
    const status = await fs.readFile(`/proc/${pid}/status`, "latin1");
    const mask = (name: string) => BigInt(`0x${new RegExp(`^${name}:\\s*([0-9a-f]+)$`, "m").exec(status)?.[1] ?? "0"}`);
    return ((mask("ShdPnd") | mask("SigPnd")) & SIGSTOP_BIT) !== 0n;
  } catch {
    return false;
  }
}

/** SIGSTOP (19) in a /proc pending-signal mask. */
const SIGSTOP_BIT = 1n << 18n;

async function startTime(pid: number): Promise<string | undefined> {
  return (await statFields(`/proc/${pid}/stat`))?.[19];
}

async function pidNamespace(pid: number): Promise<string | undefined> {
  try {
    return await fs.readlink(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

function signal(pid: number, name: "SIGSTOP" | "SIGCONT" | "SIGKILL"): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone meanwhile
  }
}

/**
 * The rebuilt home (home-view.ts) built once, not for every command. bwrap rereads the whole mount
 * table for each bind it makes, so binding each entry of the folders holding the secrets grows as
 * the square of their size: 150 ms a command for a home of 180 entries, 1.3 s for 720
 * (bench/home-view.ts). A keeper is a process left in a user and mount namespace of its own where
 * those folders are rebuilt; each command's bwrap starts in its namespaces (nsenter) and takes its
 * view from there, the whole tree in one recursive bind. The key (home-view.ts: names, kinds, file
 * ids) says which listing it holds: one that no longer matches the folders is replaced, and until
 * the new one is ready the command's own bwrap rebuilds them as before. A keeper that cannot start,
 * or in whose namespaces bwrap cannot run, is not tried again: every command rebuilds them itself.
 */
import type { ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { bwrapBaseArgs } from "./bwrap-args";
import type { HomeView } from "./home-view";
import { mountList } from "./mount-order";

const childProcess = (): typeof import("node:child_process") => require("node:child_process") as typeof import("node:child_process");

interface Keeper {
  key: string;
  child: ChildProcess;
  /**
   * Its user and mount namespaces, held open by this process once ready: a command enters them
   * through `/proc/<this pid>/fd/<n>`, never through the keeper's pid, which a process of other
   * namespaces can have by then (the keeper killed, its pid reused: a command entered those and,
   * its plan leaving the hiding to the keeper, read ~/.netrc).
   */
  fds?: { user: number; mnt: number };
  ready: Promise<boolean>;
}

export class HomeKeeper {
  private keeper: Keeper | undefined;
  /** The one before, left up until the next is replaced: a command given its namespaces may not have started yet. */
  private previous: Keeper | undefined;
  private broken = false;

  constructor(
    private readonly bwrap: string,
    private readonly nsenter: string | undefined,
  ) {}

  /** The keeper ready now: the key of what it holds and the argv prefix that starts a bwrap in its namespaces. */
  held(): { key: string; prefix: string[] } | undefined {
    const keeper = this.keeper;
    if (!this.nsenter || keeper?.fds === undefined || !alive(keeper)) return undefined;
    return { key: keeper.key, prefix: enterArgs(this.nsenter, keeper.fds) };
  }

  /** Makes sure a keeper of `view` is ready (or being made, then waited for); false if none can be. */
  async keep(view: HomeView): Promise<boolean> {
    if (this.broken || !this.nsenter || view.rebuilt.size === 0) return false;
    if (this.keeper?.key !== view.key || !alive(this.keeper)) {
      end(this.previous);
      this.previous = this.keeper;
      this.keeper = this.start(view, this.nsenter);
    }
    const ok = await this.keeper.ready;
    if (!ok) this.broken = true;
    return ok;
  }

  private start(view: HomeView, nsenter: string): Keeper {
    const layer = mountList();
    for (const { path, op } of view.kept) layer.mount(path, ...op);
    // The host's tree, writable (each command's bwrap makes it read-only but for its roots), its
    // devices usable (a command's /dev binds them from here) and /proc as it is (a command's bwrap
    // mounts a fresh one only where a whole one is seen).
    const args = ["--dev-bind", "/", "/", "--unshare-user", "--die-with-parent", ...layer.args(), "--", "/bin/sh", "-c", 'echo "$$"; exec cat'];
    const child = childProcess().spawn(this.bwrap, args, { stdio: ["pipe", "pipe", "ignore"], env: { PATH: "/usr/bin:/bin" } });
    // A cache: it does not keep the host running (it ends with the host: --die-with-parent, its input closed).
    child.unref();
    (child.stdin as Socket | null)?.unref();
    const keeper: Keeper = { key: view.key, child, ready: Promise.resolve(false) };
    keeper.ready = new Promise<boolean>((resolve) => {
      let said = "";
      const fail = () => resolve(false);
      child.once("error", fail);
      child.once("exit", fail);
      child.stdout?.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        const line = /^(\d+)\n/.exec(said);
        if (!line) return;
        child.stdout?.removeAllListeners("data");
        child.stdout?.destroy();
        const fds = alive(keeper) ? namespacesOf(Number(line[1]), child.pid) : undefined;
        if (!fds) return resolve(false);
        keeper.fds = fds;
        // The keeper is up; a command's bwrap must run in it too (a fresh /proc, a nested user namespace).
        childProcess().execFile(nsenter, [...enterArgs(nsenter, fds).slice(1), this.bwrap, ...bwrapBaseArgs(false), "--", "/bin/sh", "-c", "exit 0"], { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } }, (error) => {
          resolve(!error);
        });
      });
    });
    return keeper;
  }

  dispose(): void {
    end(this.previous);
    end(this.keeper);
    this.previous = this.keeper = undefined;
  }
}

const alive = (keeper: Keeper) => keeper.child.exitCode === null && keeper.child.signalCode === null;

function end(keeper: Keeper | undefined): void {
  if (!keeper) return;
  if (keeper.fds) for (const fd of [keeper.fds.user, keeper.fds.mnt]) closeSync(fd);
  keeper.fds = undefined;
  // cat ends with its input; commands started in its namespaces keep them as long as they run.
  keeper.child.stdin?.end();
  keeper.child.kill();
}

/**
 * The namespaces of the keeper's process `pid` (bwrap's child, `bwrap` the pid of the bwrap this
 * process started), opened: undefined if `pid` is no longer that child. Its parent is checked after
 * the opening: bwrap, not reaped before this process's event loop runs again, keeps its pid, and
 * a process that took `pid` has another parent.
 */
function namespacesOf(pid: number, bwrap: number | undefined): { user: number; mnt: number } | undefined {
  const opened: number[] = [];
  try {
    for (const ns of ["user", "mnt"]) opened.push(openSync(`/proc/${pid}/ns/${ns}`, "r"));
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid …": comm may hold anything but the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (bwrap === undefined || ppid !== bwrap) throw new Error("not the keeper");
    return { user: opened[0]!, mnt: opened[1]! };
  } catch {
    for (const fd of opened) closeSync(fd);
    return undefined;
  }
}

/** nsenter into a keeper's user and mount namespaces (held by this process), keeping the caller's uid (only it is mapped there). */
function enterArgs(nsenter: string, fds: { user: number; mnt: number }): string[] {
  return [nsenter, `--user=/proc/${process.pid}/fd/${fds.user}`, `--mount=/proc/${process.pid}/fd/${fds.mnt}`, "--preserve-credentials", "--"];
}

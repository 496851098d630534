/**
 * The OS boundary of every process the agent's tools start: a policy in, an argv out. Linux:
 * bubblewrap (bwrap-args.ts); macOS: sandbox-exec (seatbelt.ts); Windows: none (the probe says so).
 * One CommandSandbox per host: it owns the session's temp dir (private /tmp inside) and removes
 * it when disposed.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { piAgentDir } from "../project-trust";
import { buildBwrapArgs, type PathKind } from "./bwrap-args";
import type { SandboxPolicy } from "./policy";
import { probeSandbox, type SandboxProbe } from "./probe";
import { buildSeatbeltProfile, seatbeltCommand } from "./seatbelt";
import { unixSocketFilterFile, withSeccomp } from "./seccomp";
import { ScanCache, scanProtected, type ProtectedScan, type ScanLimits, type ScannedFolder } from "./protected-scan";
import { ProtectedWatch } from "./protected-watch";
import { describeSweep, sweep } from "./quarantine";
import { acquireStubs, isStub, releaseStubs } from "./stubs";

export * from "./policy";
export { probeSandbox, type SandboxProbe } from "./probe";

export interface WrappedCommand {
  file: string;
  args: string[];
  /**
   * Moves aside the protected names the command made or replaced so far (quarantine.ts); what to
   * tell the model, if anything. Call when the command's own process ends (its background jobs may
   * still run: release sweeps again).
   */
  sweep(): string | undefined;
  /** Call once nothing started inside is left (a last sweep; the stubs bwrap made are removed then). */
  release(): void;
}

export interface SandboxOptions {
  /** Where what a command made of a protected name is moved (default: `<pi agent dir>/quarantine`). */
  quarantineDir?: string;
  /** Told each time something was moved aside (a notice to the user). */
  onQuarantine?(message: string): void;
  /**
   * Whether to look for what a command made of a protected name when it ends (default true). Off
   * for a whole agent (pi, omp) sandboxed for its session: it ends hours later, and what the user
   * made meanwhile would be taken for its work.
   */
  sweepAfter?: boolean;
  /** The deep scan's caps (tests). */
  scanLimits?: ScanLimits;
}

function realOrSame(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** Sockets the environment names: a way out of any sandbox that can reach them (an ssh-agent signs with the user's keys). */
function socketsNamed(env: NodeJS.ProcessEnv): string[] {
  const found: string[] = [];
  for (const name of ["SSH_AUTH_SOCK", "VSCODE_IPC_HOOK_CLI", "VSCODE_IPC_HOOK", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS", "DOCKER_HOST", "WAYLAND_DISPLAY"]) {
    const value = env[name];
    if (!value) continue;
    const path = /(?:unix:(?:\/\/)?|path=)([^,;:]+)/.exec(value)?.[1] ?? value.split(":")[0];
    if (path.startsWith("/")) found.push(path);
  }
  return found;
}

function pathKind(path: string): PathKind {
  if (isStub(path)) return "missing";
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}

/** `gitdir: <path>` of a worktree's or submodule's `.git` file; its common dir (config, hooks) when it has one. */
function gitDirOf(dotGitFile: string): string | undefined {
  try {
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGitFile, "utf8"));
    if (!match) return undefined;
    const gitDir = resolve(dirname(dotGitFile), match[1].trim());
    try {
      return realOrSame(resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim()));
    } catch {
      return realOrSame(gitDir);
    }
  } catch {
    return undefined;
  }
}

const WATCH_LINGER_MS = 30_000;

export class CommandSandbox {
  private temp: string | undefined;
  private readonly policy: SandboxPolicy;

  private readonly quarantineDir: string;
  private toldIncomplete = false;
  private readonly scanCache = new ScanCache();
  /**
   * The commands still running (or their background jobs): each one's sweep, run when the watch
   * sees a protected name appear, and how to tell it what any of them moved aside (which of the
   * commands running made it cannot be known; each model turn that ran one is told).
   */
  private readonly live = new Map<() => string | undefined, (message: string) => void>();
  private watch: ProtectedWatch | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private unwatchTimer: NodeJS.Timeout | undefined;

  constructor(
    policy: SandboxPolicy,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly options: SandboxOptions = {},
  ) {
    this.policy = { ...policy, workspaceRoot: realOrSame(policy.workspaceRoot), writableRoots: policy.writableRoots.map(realOrSame) };
    this.quarantineDir = options.quarantineDir ?? join(piAgentDir(env, env.HOME ?? homedir()), "quarantine");
  }

  /** The writable roots the protected names are looked for below (none in read-only mode). */
  private writableRoots(): string[] {
    if (this.policy.mode !== "workspace-write") return [];
    return [...new Set([this.policy.workspaceRoot, ...this.policy.writableRoots])].filter((root) => pathKind(root) === "dir");
  }

  private scan(stubs: readonly string[]): ProtectedScan {
    const found = scanProtected(this.writableRoots(), (path) => isStub(path) || stubs.includes(path), this.options.scanLimits, this.scanCache);
    if (!found.complete && !this.toldIncomplete) {
      this.toldIncomplete = true;
      this.options.onQuarantine?.(`The workspace is too big to look through whole for nested protected paths (stopped after ${found.dirs} folders): a nested .git, .vscode, … beyond that is not kept read-only by the sandbox.`);
    }
    return found;
  }

  /** A protected name appeared while commands run: sweep soon (one sweep for a burst of events). */
  private sweepLiveSoon(): void {
    this.sweepTimer ??= setTimeout(() => {
      this.sweepTimer = undefined;
      const messages = [...this.live.keys()].flatMap((sweepNow) => sweepNow() ?? []);
      for (const tell of this.live.values()) for (const message of messages) tell(message);
    }, 20);
  }

  private watchWhile(folders: readonly ScannedFolder[], sweepNow: () => string | undefined, tell: (message: string) => void): () => void {
    if (this.options.sweepAfter === false) return () => undefined;
    this.live.set(sweepNow, tell);
    if (this.unwatchTimer) clearTimeout(this.unwatchTimer);
    this.unwatchTimer = undefined;
    // The stubs bwrap makes at the top are the sandbox's own, not the command's; events while no command runs are the user's.
    if (this.watch) this.watch.addScanned(folders);
    else this.watch = new ProtectedWatch(folders, (path) => isStub(path) || this.live.size === 0 || this.sweepLiveSoon());
    return () => {
      this.live.delete(sweepNow);
      if (this.live.size > 0) return;
      // Kept a while for the next command of the turn (setting up a watch per folder costs about one scan).
      this.unwatchTimer = setTimeout(() => {
        this.unwatchTimer = undefined;
        this.watch?.dispose();
        this.watch = undefined;
      }, WATCH_LINGER_MS);
      this.unwatchTimer.unref();
    };
  }

  get mode(): SandboxPolicy["mode"] {
    return this.policy.mode;
  }

  get network(): boolean {
    return this.policy.network;
  }

  /** Whether it can run here (cached per process). */
  probe(): Promise<SandboxProbe> {
    return probeSandbox(this.env);
  }

  /** The session's temp dir (made at first use, 0700). */
  private sessionTemp(): string {
    this.temp ??= realOrSame(mkdtempSync(join(tmpdir(), "pi-sandbox-")));
    return this.temp;
  }

  /** The argv that runs `command` (an argv) in the sandbox; the probe must have said ok. */
  wrap(probe: Extract<SandboxProbe, { ok: true }>, command: readonly string[], cwd: string): WrappedCommand {
    const home = this.env.HOME ? realOrSame(this.env.HOME) : undefined;
    if (probe.kind === "seatbelt") {
      const profile = buildSeatbeltProfile({ policy: this.policy, home, sessionTemp: this.sessionTemp() });
      const [file, ...args] = seatbeltCommand(probe.program, profile, command);
      return { file, args, sweep: () => undefined, release: () => undefined };
    }
    const runtimeDir = this.env.XDG_RUNTIME_DIR ? realOrSame(this.env.XDG_RUNTIME_DIR) : undefined;
    const before = this.scan([]);
    const plan = buildBwrapArgs({ policy: this.policy, cwd: realOrSame(cwd), home, sessionTemp: this.sessionTemp(), runtimeDir, hiddenPaths: socketsNamed(this.env), pathKind, realPath: realOrSame, gitDirOf, nested: before.entries }, command);
    acquireStubs(plan.stubs);
    let released = false;
    // What a sweep moved aside and the model has not been told yet (a release may come first).
    let untold: string[] = [];
    let toldCut = false;
    const sweepNow = (): string | undefined => {
      if (this.options.sweepAfter === false || this.writableRoots().length === 0) return undefined;
      const after = this.scan(plan.stubs);
      let message = describeSweep(sweep(before, after, this.quarantineDir));
      // A tree the command grew past the caps hides what lies beyond: the model and the user are told, every time.
      if (!after.complete && before.complete && !toldCut) {
        toldCut = true;
        const cut = `[sandbox: this command grew the workspace past ${after.dirs} folders; protected paths (a nested .git, .vscode, …) it made beyond those were not looked for. Check before git or the editor looks there.]`;
        message = message ? `${message}\n${cut}` : cut;
      }
      if (message) this.options.onQuarantine?.(message);
      return message;
    };
    const unwatch = this.watchWhile(before.folders, sweepNow, (message) => untold.push(message));
    // With the network on, the host's abstract unix sockets are reachable: a seccomp filter refuses AF_UNIX sockets.
    const filter = this.policy.network ? unixSocketFilterFile() : undefined;
    const launch = filter ? withSeccomp(probe.program, plan.args, filter) : { file: probe.program, args: plan.args };
    return {
      file: launch.file,
      args: launch.args,
      sweep: () => {
        const message = released ? undefined : sweepNow();
        if (message) untold.push(message);
        const told = untold.join("\n");
        untold = [];
        return told || undefined;
      },
      release: () => {
        if (released) return;
        released = true;
        unwatch();
        sweepNow();
        releaseStubs(plan.stubs);
      },
    };
  }

  dispose(): void {
    this.watch?.dispose();
    this.watch = undefined;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    if (this.unwatchTimer) clearTimeout(this.unwatchTimer);
    if (this.temp) rmSync(this.temp, { recursive: true, force: true });
    this.temp = undefined;
  }
}

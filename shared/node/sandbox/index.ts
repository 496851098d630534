/**
 * The OS boundary of every process the agent's tools start: a policy in, an argv out. Linux:
 * bubblewrap (bwrap-args.ts); macOS: sandbox-exec (seatbelt.ts); Windows: none (the probe says so).
 * One CommandSandbox per host: it owns the session's temp dir (private /tmp inside), the guard of
 * protected names at any depth (nested-guard.ts) and, with allowed hosts, the network proxy
 * (started by `prepare`, before the first command); it removes and closes them when disposed.
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { piAgentDir } from "../project-trust";
import { isInside, realOrSame } from "../real-path";
import { buildBwrapArgs, homeLayout, isOutOfSight, type BwrapInputs, type PathKind } from "./bwrap-args";
import { HomeKeeper } from "./home-keeper";
import { findBoundaryProgram, whyNotBoundary } from "./boundary-program";
import { gitDirOf } from "./git-dir";
import { homeStartupFiles } from "./protected-paths";
import { secretHomes, secretPlacesOfHomes } from "./secret-places";
import { listFolder } from "./list-folder";
import { bridgeCommand, bridgeMount } from "./net/bridge";
import { parseHostPattern, type HostPattern } from "./net/hosts";
import { NetworkProxy, type HostDecision, type Refusal } from "./net/proxy";
import { networkKind, type NetworkKind, type SandboxPolicy } from "./policy";
import { probeSandbox, type SandboxProbe } from "./probe";
import { buildSeatbeltProfile, seatbeltCommand } from "./seatbelt";
import { unixSocketFilterFile, withSeccomp } from "./seccomp";
import { NestedGuard } from "./nested-guard";
import type { ScanLimits } from "./protected-scan";
import { ledgerDir } from "./stub-ledger";
import { acquireStubs, isStub, releaseStubs, removeOrphanedStubs } from "./stubs";

export * from "./policy";
export { findProgram, probeSandbox, type SandboxProbe } from "./probe";

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
  /**
   * The sandbox holds a whole agent (pi, omp) for its session: nothing is swept after (as
   * `sweepAfter: false`), and everything in the sandbox ends with the agent's process (bwrap
   * `--die-with-parent`). Without it, bwrap's init waits for every process left inside: a job the
   * agent's bash left behind (`setsid nohup … &`) went on writing in the workspace after the agent
   * was stopped, held the agent's stdio open (its exit unseen until the job ended) and kept the
   * placeholders mounted past their release, so they stayed in the workspace for good.
   */
  wholeAgent?: boolean;
  /** The deep scan's caps (tests). */
  scanLimits?: ScanLimits;
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
  // A stub (this process's or another's) counts as missing: mounted again and held as this one's
  // too, so that it stays until every sandbox using it is done (stubs.ts).
  return isStub(path) ? "missing" : kindOnDisk(path);
}

function kindOnDisk(path: string): PathKind {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}

export interface CommandSandboxOptions extends SandboxOptions {
  /** With allowed hosts: whether a host not in the list may be reached (the user's question). Absent: refused. */
  decideHost?: HostDecision;
}

export class CommandSandbox {
  private temp: string | undefined;
  private readonly policy: SandboxPolicy;
  private readonly nested: NestedGuard;
  private proxy: NetworkProxy | undefined;
  private starting: Promise<NetworkProxy> | undefined;
  private disposed = false;
  private homeKeeper: HomeKeeper | undefined;
  /** The allowed-host patterns that parse (the CLI refuses the others). */
  readonly allowedHosts: readonly HostPattern[];

  constructor(
    policy: SandboxPolicy,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly options: CommandSandboxOptions = {},
  ) {
    this.policy = { ...policy, workspaceRoot: realOrSame(policy.workspaceRoot), writableRoots: policy.writableRoots.map(realOrSame) };
    // Where the secrets are before any command runs: a link renamed later still leaves its target hidden.
    secretPlacesOfHomes(env);
    this.allowedHosts = (policy.allowedHosts ?? []).flatMap((text) => parseHostPattern(text) ?? []);
    this.nested = new NestedGuard(() => this.writableRoots(), {
      quarantineDir: options.quarantineDir ?? join(piAgentDir(env, env.HOME ?? homedir()), "quarantine"),
      sweepAfter: options.sweepAfter !== false && options.wholeAgent !== true,
      ...(options.onQuarantine ? { onQuarantine: options.onQuarantine } : {}),
      ...(options.scanLimits ? { scanLimits: options.scanLimits } : {}),
      links: () => this.startupLinks(),
    });
  }

  /**
   * With home inside a writable root, the symlinked folders on the way to its start-up entries
   * (`~/.config -> dotfiles/config`): a mount cannot keep a link from being replaced by a folder
   * holding a fresh `git/config`, so the sweep puts it back (bwrap-args.ts pins the real folders).
   */
  private startupLinks(): string[] {
    const home = this.env.HOME ? realOrSame(this.env.HOME) : undefined;
    if (!home || !this.writableRoots().some((root) => isInside(root, home))) return [];
    const links = new Set<string>();
    for (const entry of homeStartupFiles) {
      let folder = home;
      for (const part of entry.name.split("/").slice(0, -1)) {
        folder = join(folder, part);
        try {
          if (!lstatSync(folder).isSymbolicLink()) continue;
          links.add(folder);
        } catch {
          // missing: a stub, made read-only
        }
        break;
      }
    }
    return [...links];
  }

  /** The writable roots the protected names are looked for below (none in read-only mode). */
  private writableRoots(): string[] {
    if (this.policy.mode !== "workspace-write") return [];
    return [...new Set([this.policy.workspaceRoot, ...this.policy.writableRoots])].filter((root) => pathKind(root) === "dir");
  }

  get mode(): SandboxPolicy["mode"] {
    return this.policy.mode;
  }

  get network(): NetworkKind {
    return networkKind(this.policy);
  }

  /**
   * Starts what must run before a command: a keeper of the home's rebuilt folders as they are now
   * (home-keeper.ts), and the network proxy (with allowed hosts). Call before `wrap`.
   */
  async prepare(): Promise<void> {
    const probe = await this.probe();
    const keeper = probe.ok && probe.kind === "bwrap" ? this.keeperOf(probe.program) : undefined;
    if (keeper) await keeper.keep(homeLayout(this.bwrapInputs(this.policy.workspaceRoot, pathKind)).view);
    if (this.network !== "proxy" || this.proxy) return;
    // node:http and node:dns are loaded only now (proxy.ts requires them at first use).
    this.starting ??= NetworkProxy.start({ allowed: this.allowedHosts, decide: this.options.decideHost ?? (() => Promise.resolve(false)) });
    let proxy: NetworkProxy;
    try {
      proxy = await this.starting;
    } catch (error) {
      this.starting = undefined;
      throw error;
    }
    if (this.disposed) proxy.dispose();
    else this.proxy = proxy;
  }

  /** The network proxy's socket on the host, once started (allowed hosts only). */
  get proxySocket(): string | undefined {
    return this.proxy?.socketPath;
  }

  /** Hosts the proxy refused at or after `since` (ms since the epoch). */
  refusedSince(since: number): Refusal[] {
    return this.proxy?.refusedSince(since) ?? [];
  }

  /**
   * Whether it can run here (cached per process), with a bwrap none of this sandbox's commands can
   * have written (another sandbox of the process may have found it: boundary-program.ts).
   */
  async probe(): Promise<SandboxProbe> {
    const probe = await probeSandbox(this.env, this.commandsWrite());
    if (!probe.ok || probe.kind !== "bwrap" || this.env.PI_SANDBOX_BWRAP) return probe;
    const why = whyNotBoundary(probe.program, this.commandsWrite());
    return why === undefined ? probe : { ok: false, reason: `${probe.program} is not used to sandbox commands: ${why} (PI_SANDBOX_BWRAP names one to use)` };
  }

  /** Where this sandbox's commands can write on the host: its writable roots and its /tmp (once made: empty until a command runs). */
  private commandsWrite(): string[] {
    const roots = this.policy.mode === "workspace-write" ? [this.policy.workspaceRoot, ...this.policy.writableRoots] : [];
    return [...roots, ...(this.temp ? [this.temp] : [])];
  }

  /** The session's temp dir (made at first use, 0700). */
  private sessionTemp(): string {
    this.temp ??= realOrSame(mkdtempSync(join(tmpdir(), "pi-sandbox-")));
    return this.temp;
  }

  /** Whether a host path (or where it leads) cannot be seen inside bubblewrap's sandbox (a private /tmp replaces the host's). */
  hides(path: string): boolean {
    const input = { policy: this.policy, home: this.env.HOME ? realOrSame(this.env.HOME) : undefined, runtimeDir: this.env.XDG_RUNTIME_DIR ? realOrSame(this.env.XDG_RUNTIME_DIR) : undefined };
    return isOutOfSight(path, input) || isOutOfSight(realOrSame(path), input);
  }

  /** The keeper of the rebuilt home (home-keeper.ts), for commands: a whole agent's sandbox starts once. */
  private keeperOf(bwrap: string): HomeKeeper | undefined {
    if (this.options.wholeAgent === true || this.disposed) return undefined;
    this.homeKeeper ??= new HomeKeeper(bwrap, findBoundaryProgram("nsenter", this.env.PATH ?? "", this.commandsWrite()).path);
    return this.homeKeeper;
  }

  /** What every command's bwrap is built from, but the command's own (the deep scan's finds, the network). */
  private bwrapInputs(cwd: string, kind: (path: string) => PathKind): BwrapInputs {
    // The stub ledgers are the host's: where they lie in a writable root ($TMPDIR in the workspace), hidden.
    const ledger = ledgerDir();
    return {
      policy: this.policy,
      cwd: realOrSame(cwd),
      home: this.env.HOME ? realOrSame(this.env.HOME) : undefined,
      sessionTemp: this.sessionTemp(),
      runtimeDir: this.env.XDG_RUNTIME_DIR ? realOrSame(this.env.XDG_RUNTIME_DIR) : undefined,
      hiddenPaths: [...socketsNamed(this.env), ...(ledger ? [ledger] : [])],
      secrets: secretPlacesOfHomes(this.env, 0),
      homes: secretHomes(this.env).map(realOrSame),
      listFolder,
      pathKind: kind,
      realPath: realOrSame,
      gitDirOf,
    };
  }

  /** The argv that runs `command` (an argv) in the sandbox; the probe must have said ok. */
  wrap(probe: Extract<SandboxProbe, { ok: true }>, command: readonly string[], cwd: string): WrappedCommand {
    const home = this.env.HOME ? realOrSame(this.env.HOME) : undefined;
    if (probe.kind === "seatbelt") {
      const profile = buildSeatbeltProfile({ policy: this.policy, home, sessionTemp: this.sessionTemp() });
      const [file, ...args] = seatbeltCommand(probe.program, profile, command);
      return { file, args, sweep: () => undefined, release: () => undefined };
    }
    const sessionTemp = this.sessionTemp();
    let net: { proxyDir: string; setenv: Record<string, string> } | undefined;
    let inner = command;
    if (this.network === "proxy") {
      if (!this.proxy) throw new Error("the sandbox's network proxy is not started (prepare() first)");
      const bridge = bridgeCommand(process.execPath, command, this.env, this.allowedHosts);
      inner = bridge.argv;
      net = { proxyDir: this.proxy.dir, setenv: bridge.setenv };
      mountPointIn(sessionTemp, bridgeMount.slice("/tmp/".length));
    }
    removeOrphanedStubs();
    const guard = this.nested.begin();
    // What the deep scan found is mounted as it is on disk, another process's stub deeper down included (nested-guard.ts).
    const nested = new Set(guard.found.entries.map((entry) => entry.path));
    const kind = (path: string) => (nested.has(path) ? kindOnDisk(path) : pathKind(path));
    const held = this.keeperOf(probe.program)?.held();
    const plan = buildBwrapArgs({ ...this.bwrapInputs(cwd, kind), nested: guard.found.entries, dieWithParent: this.options.wholeAgent === true, ...(held ? { keptHomeView: held.key } : {}), ...net }, inner);
    acquireStubs(plan.stubs);
    guard.track(plan.stubs);
    let released = false;
    // With the network on, the host's abstract unix sockets are reachable: a seccomp filter refuses AF_UNIX sockets.
    const filter = this.policy.network ? unixSocketFilterFile({ allowDatagram: this.policy.allowUnixDatagram === true }) : undefined;
    // Started in the keeper's namespaces when it holds the folders as they are now (home-keeper.ts).
    const program = [...(plan.inKeeper && held ? held.prefix : []), probe.program];
    const launch = filter ? withSeccomp(program, plan.args, filter) : { file: program[0]!, args: [...program.slice(1), ...plan.args] };
    return {
      file: launch.file,
      args: launch.args,
      sweep: guard.sweep,
      release: () => {
        if (released) return;
        released = true;
        guard.release();
        releaseStubs(plan.stubs);
      },
    };
  }

  dispose(): void {
    this.nested.dispose();
    this.homeKeeper?.dispose();
    this.disposed = true;
    this.proxy?.dispose();
    this.proxy = undefined;
    if (this.temp) rmSync(this.temp, { recursive: true, force: true });
    this.temp = undefined;
  }
}

/**
 * The bridge's mount point in the session's temp dir (the sandbox's /tmp, which its commands can
 * write): a real, empty folder, whatever an earlier command left there (a symlink, a file).
 */
function mountPointIn(sessionTemp: string, name: string): void {
  const path = join(sessionTemp, name);
  try {
    if (lstatSync(path).isDirectory()) return;
    rmSync(path, { recursive: true, force: true });
  } catch {
    // missing: made below
  }
  mkdirSync(path, { mode: 0o700 });
}

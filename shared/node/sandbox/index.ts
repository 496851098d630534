/**
 * The OS boundary of every process the agent's tools start: a policy in, an argv out. Linux:
 * bubblewrap (bwrap-args.ts); macOS: sandbox-exec (seatbelt.ts); Windows: none (the probe says so).
 * One CommandSandbox per host: it owns the session's temp dir (private /tmp inside) and removes
 * it when disposed, and the guard of protected names at any depth (nested-guard.ts).
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
import { NestedGuard } from "./nested-guard";
import type { ScanLimits } from "./protected-scan";
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

export class CommandSandbox {
  private temp: string | undefined;
  private readonly policy: SandboxPolicy;
  private readonly nested: NestedGuard;

  constructor(
    policy: SandboxPolicy,
    private readonly env: NodeJS.ProcessEnv = process.env,
    options: SandboxOptions = {},
  ) {
    this.policy = { ...policy, workspaceRoot: realOrSame(policy.workspaceRoot), writableRoots: policy.writableRoots.map(realOrSame) };
    this.nested = new NestedGuard(() => this.writableRoots(), {
      quarantineDir: options.quarantineDir ?? join(piAgentDir(env, env.HOME ?? homedir()), "quarantine"),
      sweepAfter: options.sweepAfter !== false,
      ...(options.onQuarantine ? { onQuarantine: options.onQuarantine } : {}),
      ...(options.scanLimits ? { scanLimits: options.scanLimits } : {}),
    });
  }

  /** The writable roots the protected names are looked for below (none in read-only mode). */
  private writableRoots(): string[] {
    if (this.policy.mode !== "workspace-write") return [];
    return [...new Set([this.policy.workspaceRoot, ...this.policy.writableRoots])].filter((root) => pathKind(root) === "dir");
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
    const guard = this.nested.begin();
    const plan = buildBwrapArgs({ policy: this.policy, cwd: realOrSame(cwd), home, sessionTemp: this.sessionTemp(), runtimeDir, hiddenPaths: socketsNamed(this.env), pathKind, realPath: realOrSame, gitDirOf, nested: guard.found.entries }, command);
    acquireStubs(plan.stubs);
    guard.track(plan.stubs);
    let released = false;
    // With the network on, the host's abstract unix sockets are reachable: a seccomp filter refuses AF_UNIX sockets.
    const filter = this.policy.network ? unixSocketFilterFile() : undefined;
    const launch = filter ? withSeccomp(probe.program, plan.args, filter) : { file: probe.program, args: plan.args };
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
    if (this.temp) rmSync(this.temp, { recursive: true, force: true });
    this.temp = undefined;
  }
}

/**
 * Which launches of the bundled host may share a pool process (`agent-host.js --pool`,
 * agent-host/pool/), and how a launch splits into the pool's command and the session's part.
 * Sessions share a process only when everything the process itself sees is the same: the node
 * binary, its flags (the memory flags among them), no wrapper around it (a sandbox wrapping the
 * whole agent), the working folder (a worker cannot chdir) and the environment, less the
 * variables the launch names in PI_SECRET_ENV (each session's own gateway token and the like:
 * they go to the session's worker only, never to the pool's process).
 */
import * as path from "node:path";

export interface LaunchToPool {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  bundled: boolean;
  protocol?: string;
}

export interface PoolProcessLaunch {
  /** Launches with the same key share a pool. */
  key: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface PoolResourceLimits {
  maxYoungGenerationSizeMb?: number;
  maxOldGenerationSizeMb?: number;
}

export interface PooledSessionLaunch {
  pool: PoolProcessLaunch;
  /** The host's arguments (after agent-host.js). */
  argv: string[];
  /** The worker's whole environment. */
  env: Record<string, string>;
  resourceLimits?: PoolResourceLimits;
}

/** Variables a session's worker keeps to itself; except those read by the process at its start (glibc's malloc settings). */
const PROCESS_WIDE = new Set(["GLIBC_TUNABLES"]);

/** `--max-semi-space-size=N` for a process is a young generation of 3N MB for a worker (two semi-spaces and the new large-object space). */
function youngGenerationOf(nodeArgs: readonly string[]): PoolResourceLimits | undefined {
  const flag = nodeArgs.map((arg) => /^--max-semi-space-size=(\d+)$/.exec(arg)).find(Boolean);
  return flag ? { maxYoungGenerationSizeMb: 3 * Number(flag[1]) } : undefined;
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The pool's part and the session's part of a launch; undefined when the launch must keep a process of its own. */
export function pooledLaunch(launch: LaunchToPool, hostScript: string, nodeBinary: string): PooledSessionLaunch | undefined {
  if (!launch.bundled || launch.protocol === "acp" || launch.command !== nodeBinary) return undefined;
  const at = launch.args.findIndex((arg) => path.resolve(arg) === path.resolve(hostScript));
  const nodeArgs = launch.args.slice(0, at);
  if (at < 0 || !nodeArgs.every((arg) => arg.startsWith("--"))) return undefined;
  const env = definedOnly(launch.env);
  const secret = new Set((env.PI_SECRET_ENV ?? "").split(",").filter((name) => name && !PROCESS_WIDE.has(name)));
  const poolEnv = Object.fromEntries(Object.entries(env).filter(([name]) => name !== "PI_SECRET_ENV" && !secret.has(name)));
  const args = [...nodeArgs, launch.args[at]!, "--pool"];
  const key = JSON.stringify([launch.command, args, launch.cwd, Object.entries(poolEnv).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  const resourceLimits = youngGenerationOf(nodeArgs);
  return {
    pool: { key, command: launch.command, args, cwd: launch.cwd, env: poolEnv },
    argv: launch.args.slice(at + 1),
    env,
    ...(resourceLimits ? { resourceLimits } : {}),
  };
}

/**
 * How the editor runs its bundled host so that each session holds less memory (issue 31: an agent
 * process held ~75 MB RSS after a 4,000-delta stream, a bare Node process 40–45 MB, and neither
 * V8 nor glibc gave back what the stream had used). `npm run bench:memory`, after the stream:
 *  - V8's young generation capped at 1 MB semi-spaces: it grew to 8 MB during the stream and
 *    stayed there (about −3 MB; the stream's time and CPU unchanged);
 *  - glibc's malloc with one arena and a fixed 128 KB trim threshold: freed memory goes back to
 *    the system instead of staying in the arenas (about −4 MB, −2.5 MB already when idle).
 * The node flag is left out under Electron (desktop VS Code), whose Node takes its own flags;
 * the malloc settings are left out where the user set GLIBC_TUNABLES. The host takes the variable
 * out of its environment at start-up (it is named in PI_SECRET_ENV, agent-host/rpc/secret-env.ts):
 * the processes its tools start run with glibc's defaults.
 */
export const HOST_NODE_FLAGS = ["--max-semi-space-size=1"] as const;
export const MALLOC_TUNABLES_ENV = "GLIBC_TUNABLES";
export const HOST_MALLOC_TUNABLES = "glibc.malloc.arena_max=1:glibc.malloc.trim_threshold=131072";

export interface HostMemoryLaunch {
  /** Node's options, before the host's script. */
  nodeArgs: string[];
  /** Variables for the host process only (to be named in PI_SECRET_ENV). */
  env: Record<string, string>;
}

export function hostMemoryLaunch(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, electron: boolean): HostMemoryLaunch {
  const malloc = platform === "linux" && env[MALLOC_TUNABLES_ENV] === undefined;
  return { nodeArgs: electron ? [] : [...HOST_NODE_FLAGS], env: malloc ? { [MALLOC_TUNABLES_ENV]: HOST_MALLOC_TUNABLES } : {} };
}

/**
 * What a sandboxed process may do, named as Codex names its modes: `read-only` (nothing writable
 * but the session's temp dir), `workspace-write` (the workspace and extra roots too, less the
 * protected paths of protected-paths.ts), `full-access` (no sandbox at all). Network: off (a
 * network namespace of its own), on (the host's), or through a filtering proxy to allowed hosts.
 */
export const sandboxModes = ["read-only", "workspace-write", "full-access"] as const;
export type SandboxMode = (typeof sandboxModes)[number];

export interface SandboxPolicy {
  mode: SandboxMode;
  /** Whether the process may reach the network (else a network namespace of its own: loopback only). */
  network: boolean;
  /**
   * With `network` false: the network through the proxy (net/proxy.ts), to hosts matching these
   * patterns (net/hosts.ts) and those the user allows when asked. Undefined: no network at all.
   */
  allowedHosts?: readonly string[];
  /** The workspace (the host's cwd): writable in workspace-write. Absolute. */
  workspaceRoot: string;
  /** More writable directories (workspace-write only). Absolute. */
  writableRoots: readonly string[];
  /**
   * Home secrets (names of protected-paths.ts `homeSecrets`) left visible, read-only: a whole agent
   * run inside the sandbox (pi) needs its own logins. Everything it starts sees them too.
   */
  visibleSecrets?: readonly string[];
  /**
   * Folders that must stay readable even where the sandbox puts its own view (a private `/tmp`):
   * a whole agent's own directory (its models.json, settings, extensions) when it lies there.
   */
  readableRoots?: readonly string[];
  /** Paths inside the writable roots kept read-only where they exist (a whole agent's own settings, extensions, models). */
  readOnlyPaths?: readonly string[];
  /**
   * Folders inside the writable roots that may not be made either (a whole agent's `extensions/`,
   * loaded by the next agent, ours outside any sandbox): a missing one is a stub, empty and read-only.
   */
  uncreatableDirs?: readonly string[];
  /** With `network`: datagram unix sockets allowed (seccomp.ts: omp sandboxed whole locks its files with one). */
  allowUnixDatagram?: boolean;
}

export function isSandboxMode(value: string): value is SandboxMode {
  return (sandboxModes as readonly string[]).includes(value);
}

export type NetworkKind = "off" | "on" | "proxy";

export function networkKind(policy: Pick<SandboxPolicy, "network" | "allowedHosts">): NetworkKind {
  return policy.network ? "on" : policy.allowedHosts ? "proxy" : "off";
}

/**
 * What a sandboxed process may do, named as Codex names its modes: `read-only` (nothing writable
 * but the session's temp dir), `workspace-write` (the workspace and extra roots too, less the
 * protected paths of protected-paths.ts), `full-access` (no sandbox at all). Network is on or off.
 */
export const sandboxModes = ["read-only", "workspace-write", "full-access"] as const;
export type SandboxMode = (typeof sandboxModes)[number];

export interface SandboxPolicy {
  mode: SandboxMode;
  /** Whether the process may reach the network (else a network namespace of its own: loopback only). */
  network: boolean;
  /** The workspace (the host's cwd): writable in workspace-write. Absolute. */
  workspaceRoot: string;
  /** More writable directories (workspace-write only). Absolute. */
  writableRoots: readonly string[];
  /**
   * Home secrets (names of protected-paths.ts `homeSecrets`) left visible, read-only: a whole agent
   * run inside the sandbox (pi) needs its own logins. Everything it starts sees them too.
   */
  visibleSecrets?: readonly string[];
}

export function isSandboxMode(value: string): value is SandboxMode {
  return (sandboxModes as readonly string[]).includes(value);
}

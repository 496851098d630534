/**
 * The macOS profile (sandbox-exec, "Seatbelt"): the same policy as bwrap-args.ts, written as
 * rules. Written and documented, not tested here (no macOS in CI). Seatbelt matches paths, so a
 * protected path that does not exist yet needs no stub: `(subpath ".../.git")` refuses creating
 * it too; and it matches by regex, so unlike bubblewrap it can refuse a protected name at any
 * depth (`sub/.git`) before it exists. Later rules win over earlier ones. Not covered on macOS: a PID namespace (other
 * processes are hidden by `process-info` rules, not by a new /proc, which macOS has not).
 */
import { join } from "node:path";
import type { SandboxPolicy } from "./policy";
import { homeSecrets, homeStartupFiles, protectedWorkspaceNames } from "./protected-paths";

/** An SBPL string literal. */
const quote = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/**
 * An SBPL raw regex literal matching `path` itself: regex specials escaped; a quote or a control
 * character, which cannot stand in `#"…"`, becomes `.` (any character: the rule covers a little
 * more, never less).
 */
const regexPath = (path: string) => path.replace(/[.[\]()*+?{}|^$\\]/g, "\\$&").replace(/["\u0000-\u001f]/g, ".");

/** Protected names below `root` at any depth (the top ones have their own rules). */
const nestedNames = (root: string) => `(regex #"^${regexPath(root)}/(.+/)?(${protectedWorkspaceNames.map((e) => regexPath(e.name)).join("|")})(/|$)")`;

export interface SeatbeltInputs {
  policy: SandboxPolicy;
  home?: string;
  /** The session's temp dir (TMPDIR inside). */
  sessionTemp: string;
}

export function buildSeatbeltProfile({ policy, home, sessionTemp }: SeatbeltInputs): string {
  if (policy.mode === "full-access") throw new Error("full-access runs without sandbox-exec");
  const roots = policy.mode === "workspace-write" ? [policy.workspaceRoot, ...policy.writableRoots] : [];
  const rules = [
    "(version 1)",
    "(allow default)",
    // Writes: nowhere, then the session temp dir, the writable roots and the devices every shell writes.
    "(deny file-write*)",
    `(allow file-write* (subpath ${quote(sessionTemp)}) ${roots.map((r) => `(subpath ${quote(r)})`).join(" ")} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
    // Protected names stay read-only, existing or not.
    // At any depth too, but inside a package of node_modules (npm packages ship .github by the thousand; Linux does not look there either).
    ...roots.flatMap((root) => [`(deny file-write* ${nestedNames(root)})`, `(allow file-write* (regex #"^${regexPath(root)}/(.+/)?node_modules/[^/.][^/]*/"))`]),
    ...roots.map((root) => `(deny file-write* ${protectedWorkspaceNames.map((e) => `(${e.kind === "dir" ? "subpath" : "literal"} ${quote(join(root, e.name))})`).join(" ")})`),
    ...(home ? [`(deny file-write* ${homeStartupFiles.map((e) => `(${e.kind === "dir" ? "subpath" : "literal"} ${quote(join(home, e.name))})`).join(" ")})`] : []),
    // Secrets: not even readable.
    ...(home ? [`(deny file-read* file-write* ${homeSecrets.map((name) => `(subpath ${quote(join(home, name))})`).join(" ")})`] : []),
    // Other processes: not inspectable (their arguments and environment).
    "(deny process-info*)",
    "(allow process-info* (target same-sandbox))",
    // Unix sockets of other programs (ssh-agent, the editor's IPC, docker) are a way out.
    '(deny network-outbound (remote unix-socket))',
    ...(policy.network ? [] : ["(deny network*)"]),
  ];
  return rules.join("\n");
}

/** The argv that runs `command` under the profile. */
export function seatbeltCommand(program: string, profile: string, command: readonly string[]): string[] {
  return [program, "-p", profile, "--", ...command];
}

/**
 * Can the sandbox run here, and if not, why. Asked once per process (the answer is cached): on
 * Linux it runs bwrap with the very namespaces every command gets, so a kernel that refuses user
 * namespaces (kernel.unprivileged_userns_clone=0, AppArmor's restrict_unprivileged_userns) or a
 * bwrap too old for --disable-userns (< 0.8) is found here, not at the first command.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { bwrapBaseArgs } from "./bwrap-args";
import { findBoundaryProgram, type FoundProgram } from "./boundary-program";

/** child_process is loaded with the first probe, not with the host: its first command does not need it. */
const childProcess = (): typeof import("node:child_process") => require("node:child_process") as typeof import("node:child_process");

export type SandboxProbe = { ok: true; kind: "bwrap" | "seatbelt"; program: string } | { ok: false; reason: string };

let cached: Promise<SandboxProbe> | undefined;

/** `writableRoots`: folders sandboxed commands can write, where no bwrap is taken from (boundary-program.ts). */
export function probeSandbox(env: NodeJS.ProcessEnv = process.env, writableRoots: readonly string[] = []): Promise<SandboxProbe> {
  cached ??= probe(env, writableRoots);
  return cached;
}

/** Tests only: forget the cached answer. */
export function resetSandboxProbe(): void {
  cached = undefined;
}

/** The first executable `name` on a PATH-style list, then in /usr/bin and /bin. */
export function findProgram(name: string, pathList: string): string | undefined {
  for (const dir of [...pathList.split(delimiter), "/usr/bin", "/bin"]) {
    if (!dir.startsWith("/")) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

async function probe(env: NodeJS.ProcessEnv, writableRoots: readonly string[]): Promise<SandboxProbe> {
  if (process.platform === "win32") return { ok: false, reason: "Windows has no sandbox for the agent's commands" };
  if (process.platform === "darwin") {
    const program = findProgram("sandbox-exec", "/usr/bin");
    return program ? { ok: true, kind: "seatbelt", program } : { ok: false, reason: "sandbox-exec is missing" };
  }
  if (process.platform !== "linux") return { ok: false, reason: `no sandbox on ${process.platform}` };
  const found: FoundProgram = env.PI_SANDBOX_BWRAP ? { path: env.PI_SANDBOX_BWRAP } : findBoundaryProgram("bwrap", env.PATH ?? "", writableRoots);
  const program = found.path;
  if (!program) {
    const refused = found.refused ? `; ${found.refused.path} is not used: ${found.refused.why} (PI_SANDBOX_BWRAP names one to use)` : "";
    return { ok: false, reason: `bubblewrap (bwrap) is not installed: install the \`bubblewrap\` package${refused}` };
  }
  return new Promise((resolve) => {
    childProcess().execFile(program, [...bwrapBaseArgs(false), "--", "/bin/sh", "-c", "exit 0"], { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } }, (error, _stdout, stderr) => {
      if (!error) return resolve({ ok: true, kind: "bwrap", program });
      const said = String(stderr).trim().split("\n").pop() ?? "";
      const userns = /namespace|uid map|Operation not permitted|Permission denied/i.test(said);
      resolve({ ok: false, reason: userns ? `bwrap cannot create user namespaces here (${said})` : `bwrap does not run here: ${said || error.message}` });
    });
  });
}

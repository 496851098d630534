import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { onProcFs, realPathOf, resolvesInside } from "./real-path";
import { hiddenSecretOf } from "./sandbox/protected-match";
import type { HomeEnv } from "./sandbox/secret-places";
import type { Captured } from "./checkpoint-store";
import { DEFAULT_MAX_FILE_BYTES } from "../checkpoints/schema";

/** Tools whose `path` argument names the one file they change (Pi's and oh-my-pi's). */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/**
 * The absolute file a tool call's `path` names (a leading `@` and `~` as Pi reads them), when it
 * lies in the workspace `cwd` (every link followed) and in no home secret a sandbox hides (`env`'s
 * homes, secret-places.ts), or undefined. Only those are recorded: a rewind restores nothing else
 * (restore-guard.ts), and the store is readable by a sandboxed agent: a write call naming
 * `~/.ssh/id_ed25519`, which its sandbox hides, had the key copied there, with home as the
 * workspace too.
 */
export function toolTargetPath(args: unknown, cwd: string, env: HomeEnv = process.env): string | undefined {
  const raw = (args as { path?: unknown } | undefined)?.path;
  if (typeof raw !== "string" || !raw) return undefined;
  let p = raw.startsWith("@") ? raw.slice(1) : raw;
  if (p === "~" || p.startsWith("~/")) p = path.join(os.homedir(), p.slice(1));
  const target = path.resolve(cwd, p);
  try {
    return resolvesInside([realPathOf(cwd)], target) && hiddenSecretOf(target, env) === undefined ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the editor records of `target` (toolTargetPath's) before an agent's tool changes it, when no
 * editor has it loaded: the file on disk as really opened. Judged by name and then read by name, a
 * job flipping a link between a workspace file and `~/.ssh/id_ed25519` had the key recorded 267
 * times in 3 s of write calls; now the opened file's device and inode must be those of its real
 * path found after the open, and that path must pass the same judgement (in `cwd`, not hidden).
 */
export function captureTarget(target: string, cwd: string, env: HomeEnv = process.env): Captured {
  let fd: number;
  try {
    // Non-blocking: a FIFO does not hold the editor.
    fd = fs.openSync(target, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? { content: null } : { skipped: "unreadable" };
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return { skipped: "unreadable" };
    const real = fs.realpathSync.native(target);
    const now = fs.statSync(real);
    if (now.dev !== opened.dev || now.ino !== opened.ino) return { skipped: "unreadable" };
    // /proc: the editor's own (its environment), even with the working folder at / (the sandbox has its own).
    if (!resolvesInside([realPathOf(cwd)], real) || hiddenSecretOf(real, env) !== undefined || onProcFs(real)) return { skipped: "unreadable" };
    if (opened.size > DEFAULT_MAX_FILE_BYTES) return { skipped: "tooLarge" };
    return { content: fs.readFileSync(fd) };
  } catch {
    return { skipped: "unreadable" };
  } finally {
    fs.closeSync(fd);
  }
}

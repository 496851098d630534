import * as os from "node:os";
import * as path from "node:path";
import { realPathOf, resolvesInside } from "./real-path";

/** Tools whose `path` argument names the one file they change (Pi's and oh-my-pi's). */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/**
 * The absolute file a tool call's `path` names (a leading `@` and `~` as Pi reads them), when it
 * lies in the workspace `cwd` (every link followed), or undefined. Only those are recorded: a
 * rewind restores nothing else (restore-guard.ts), and the store is readable by a sandboxed agent:
 * a write call naming `~/.ssh/id_ed25519`, which its sandbox hides, had the key copied there.
 */
export function toolTargetPath(args: unknown, cwd: string): string | undefined {
  const raw = (args as { path?: unknown } | undefined)?.path;
  if (typeof raw !== "string" || !raw) return undefined;
  let p = raw.startsWith("@") ? raw.slice(1) : raw;
  if (p === "~" || p.startsWith("~/")) p = path.join(os.homedir(), p.slice(1));
  const target = path.resolve(cwd, p);
  try {
    return resolvesInside([realPathOf(cwd)], target) ? target : undefined;
  } catch {
    return undefined;
  }
}

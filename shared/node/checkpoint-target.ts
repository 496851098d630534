import * as os from "node:os";
import * as path from "node:path";

/** Tools whose `path` argument names the one file they change (Pi's and oh-my-pi's). */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/** The absolute file a tool call's `path` names (a leading `@` and `~` as Pi reads them), or undefined. */
export function toolTargetPath(args: unknown, cwd: string): string | undefined {
  const raw = (args as { path?: unknown } | undefined)?.path;
  if (typeof raw !== "string" || !raw) return undefined;
  let p = raw.startsWith("@") ? raw.slice(1) : raw;
  if (p === "~" || p.startsWith("~/")) p = path.join(os.homedir(), p.slice(1));
  return path.resolve(cwd, p);
}

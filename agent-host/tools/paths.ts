/**
 * How tools turn a model-written path into an absolute one, as pi does: relative to the tool's
 * cwd, `~` and `~/…` for the home directory, a leading `@` (from @-mentions) dropped, odd Unicode
 * spaces made plain, `file://` URLs accepted. Reads also try the spellings macOS uses in
 * screenshot names when the path as written does not exist.
 */
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const NARROW_NO_BREAK_SPACE = "\u202F";

/** Expands `~`, strips a leading `@`, plain-spaces odd Unicode spaces, decodes `file://` URLs. */
export function expandPath(input: string, home: string = homedir()): string {
  let path = input.replace(UNICODE_SPACES, " ");
  if (path.startsWith("@")) path = path.slice(1);
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  if (path.startsWith("file://")) return fileURLToPath(path);
  return path;
}

/** The absolute path a tool works on; `cwd` is the base for relative paths. */
export function resolveToCwd(input: string, cwd: string, home?: string): string {
  const path = expandPath(input, home);
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/**
 * Like resolveToCwd, then, if nothing exists there, the macOS variants of the name: a narrow
 * no-break space before AM/PM, NFD-decomposed letters, a curly apostrophe, NFD plus curly.
 */
export async function resolveReadPath(
  input: string,
  cwd: string,
  exists: (absPath: string) => Promise<boolean>,
): Promise<string> {
  const resolved = resolveToCwd(input, cwd);
  if (await exists(resolved)) return resolved;
  const nfd = resolved.normalize("NFD");
  const curly = (p: string) => p.replace(/'/g, "\u2019");
  const variants = [resolved.replace(/ (AM|PM)\./gi, `${NARROW_NO_BREAK_SPACE}$1.`), nfd, curly(resolved), curly(nfd)];
  for (const variant of variants) {
    if (variant !== resolved && (await exists(variant))) return variant;
  }
  return resolved;
}

/** `target` relative to `base` with forward slashes; `target` itself (posix) when outside `base`. */
export function toPosixRelative(base: string, target: string): string {
  const rel = relative(base, target);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return target.split(sep).join("/");
  return rel.split(sep).join("/");
}

/** Forward slashes whatever the platform (globs and ignore rules are written with them). */
export const toPosix = (path: string): string => path.split(sep).join("/");

/**
 * Called with the absolute path a tool is about to open or create (after every fallback such as
 * read's spelling variants), the path as the model wrote it, and the tool call's id (writing
 * tools); throws to refuse it. `--workspace-only` plugs in a guard that resolves every symlink
 * (createWorkspaceGuard).
 */
export type PathGuard = (absPath: string, asWritten: string, callId?: string) => void;

/** Tool options that take a PathGuard. */
export interface GuardedOptions {
  guard?: PathGuard;
  /** Writing tools: checked right before the file is written (a symlink may lead elsewhere by then than when the call was judged). */
  beforeWrite?: PathGuard;
}

/** The absolute path a tool works on (resolveToCwd), once its guard let it pass (the guard throws to refuse it). */
export function guardedPath(asWritten: string, cwd: string, options: GuardedOptions): string {
  const absPath = resolveToCwd(asWritten, cwd);
  options.guard?.(absPath, asWritten);
  return absPath;
}

/** For a reading tool: its guard, run on the real path of the file or folder it opened (io.ts OpenedCheck). */
export function openedCheck(options: GuardedOptions, asWritten: string): ((realPath: string) => void) | undefined {
  const { guard } = options;
  return guard && ((realPath) => guard(realPath, asWritten));
}

/** For a writing tool: its guard and its check before writing, run on the real path of the file it opened (io.ts OpenedCheck). */
export function openedWriteCheck(options: GuardedOptions, asWritten: string, callId: string): ((realPath: string) => void) | undefined {
  const { guard, beforeWrite } = options;
  if (!guard && !beforeWrite) return undefined;
  return (realPath) => {
    guard?.(realPath, asWritten);
    beforeWrite?.(realPath, asWritten, callId);
  };
}

/**
 * Where a model-written path points, and whether the editor tools may touch it: relative paths
 * are taken from the first workspace folder, absolute ones must lie inside a workspace folder,
 * and so must the file they really lead to once every symlink is resolved.
 * Free of vscode (node:path, node:fs), so it is unit-tested.
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { lstatSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isInside, realPathOf, resolvesInside } from "../../shared/node/real-path";
import { hiddenSecretOf, hiddenSecretsNow } from "../../shared/node/sandbox/protected-match";
import { homeEnvOf, type HomeEnv } from "../../shared/node/sandbox/secret-places";

/**
 * Whose secrets the agents' sandbox hides: the home, and Pi's agent dir where PI_CODING_AGENT_DIR
 * puts it (its auth.json and models.json hidden there too: secret-places.ts; the editor tools
 * passed the home alone, and read them in a workspace holding that dir).
 */
export interface HiddenIn {
  home: string | undefined;
  agentDir?: string | undefined;
}

/** The environment secret-places.ts reads them from (with the extension host's variables that move secrets: KUBECONFIG, …). */
export const hiddenEnv = (hidden: HiddenIn): HomeEnv => ({ ...homeEnvOf(process.env), HOME: hidden.home, PI_CODING_AGENT_DIR: hidden.agentDir });

export interface WorkspacePath {
  /** Absolute, normalised file-system path. */
  absPath: string;
  /** The workspace folder that holds it. */
  folder: string;
  /** How the tools show it: relative (forward slashes) to the first folder, else absolute. */
  display: string;
}

function inside(folder: string, absPath: string): string | undefined {
  const rel = relative(folder, absPath);
  if (rel === "") return "";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel;
}

/** How a tool result names `absPath`; undefined when it is outside every folder. */
export function displayPath(absPath: string, folders: readonly string[]): string | undefined {
  const first = folders[0];
  const rel = first === undefined ? undefined : inside(first, absPath);
  if (rel !== undefined) return rel === "" ? "." : rel.split(sep).join("/");
  return folders.some((folder) => inside(folder, absPath) !== undefined) ? absPath : undefined;
}

/**
 * Resolves `input` (relative, absolute, `file://` URL, or with the `@` of an @-mention) against
 * the workspace folders. Throws a message meant for the model when there is no folder, the path
 * is empty or it leads outside the workspace, or, with `hiddenIn` (the home of an agent whose
 * sandbox hides its secrets: `~/.ssh`, …), into one of those (home opened as the workspace).
 */
export function resolveWorkspacePath(input: string, folders: readonly string[], hiddenIn?: HiddenIn): WorkspacePath {
  const first = folders[0];
  if (first === undefined) throw new Error("No workspace folder is open: the editor tools only work on files of a workspace.");
  let text = input.trim();
  if (text.startsWith("@")) text = text.slice(1);
  if (text.startsWith("file://")) text = fileURLToPath(text);
  if (text === "") throw new Error("The path is empty.");
  const absPath = isAbsolute(text) ? resolve(text) : resolve(first, text);
  const folder = [...folders].sort((a, b) => b.length - a.length).find((f) => inside(f, absPath) !== undefined);
  // The text check alone would let a symlink in the workspace lead anywhere.
  if (folder === undefined || !resolvesInside(realFolders(folders), absPath)) {
    throw new Error(
      `The path "${input}" is outside the workspace (${folders.join(", ")}). The editor tools only read and edit files inside the workspace; use a path relative to ${first}.`,
    );
  }
  const secret = hiddenIn && hiddenSecretOf(absPath, hiddenEnv(hiddenIn));
  if (secret) throw new Error(`The path "${input}" is in ~/${secret}, which the sandbox hides from the agent; the editor tools leave it alone too.`);
  return { absPath, folder, display: displayPath(absPath, folders) ?? absPath };
}

/** The workspace folders' real paths (those that exist). */
export function realFolders(folders: readonly string[]): string[] {
  return folders.flatMap((folder) => {
    try {
      return [realPathOf(folder)];
    } catch {
      return [];
    }
  });
}

/**
 * Where the file named `absPath` may really be: the workspace folders' real paths when it is named
 * in one, else the named file itself (its folder's links resolved, as the user's own set-up may
 * have them, but no link at its name).
 */
export function realRootsFor(absPath: string, folders: readonly string[]): string[] {
  if (displayPath(absPath, folders) !== undefined) return realFolders(folders);
  try {
    return [join(realPathOf(dirname(absPath)), basename(absPath))];
  } catch {
    return [];
  }
}

/**
 * Of `files` (absolute paths a search found), those whose folder really lies in `realRoots` and
 * not in a hidden secret: VS Code's search follows links (search.followSymlinks), so a folder link a
 * cloned repository ships or a command makes (`keys -> ~/.ssh`, `docs -> /home`) had the names
 * below it listed for the agent. A link at a file's own name is left in: the name is the
 * workspace's, and its text goes through readVerified. Each folder is resolved once.
 */
export function filesReallyIn(files: readonly string[], realRoots: readonly string[], hidden: HiddenIn | undefined): string[] {
  const secretOf = hidden && hiddenSecretsNow(hiddenEnv(hidden));
  const realOf = realFoldersOf();
  const verdicts = new Map<string, boolean>();
  const folderIn = (folder: string): boolean => {
    const real = realOf(folder);
    return real !== undefined && realRoots.some((root) => isInside(root, real)) && !secretOf?.(real);
  };
  return files.filter((file) => {
    const folder = dirname(file);
    let kept = verdicts.get(folder);
    if (kept === undefined) verdicts.set(folder, (kept = folderIn(folder)));
    return kept;
  });
}

/**
 * Real paths of many folders, each found from its parent's: a folder that is no link is its real
 * parent's entry (one lstat), only links are resolved whole (a realpath per folder cost ~12 µs at
 * 2,000 folders, a task of ~25 ms on the extension host). Undefined: gone, or a link loop.
 */
function realFoldersOf(): (folder: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  const realOf = (folder: string): string | undefined => {
    if (known.has(folder)) return known.get(folder);
    const parent = dirname(folder);
    let real: string | undefined;
    try {
      if (parent === folder || lstatSync(folder).isSymbolicLink()) real = realPathOf(folder);
      else {
        const realParent = realOf(parent);
        real = realParent === undefined ? undefined : join(realParent, basename(folder));
      }
    } catch {
      real = undefined;
    }
    known.set(folder, real);
    return real;
  };
  return realOf;
}

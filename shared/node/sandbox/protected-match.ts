/**
 * The one test of "does this path pass through a protected name" (protected-paths.ts's tables),
 * for every door a write can go through: the host's permission gate and its check at the write,
 * the editor's editor_edit, an ACP agent's fs/write_text_file, a checkpoint's restore. Without
 * regard to letter case (macOS and Windows file systems usually ignore it: `.GIT/config` is
 * `.git/config` there), and as Windows opens names (`.git.`, `.git ` and `config::$DATA` are
 * `.git` and `config`).
 */
import { relative } from "node:path";
import { isInside, realOrSame, realPathOf, realPathOrSame } from "../real-path";
import { fileToolProtectedNames, type ProtectedName } from "./protected-paths";
import { readOnlyPlaces } from "./read-only-places";
import { secretPlacesOfHomes, type HomeEnv } from "./secret-places";

/** A name as Windows opens it, lower-cased. */
export function comparableName(part: string): string {
  return part.toLowerCase().replace(/:.*$/, "").replace(/[. ]+$/, (tail) => (tail === part ? tail : ""));
}

interface Lookup {
  dirs: Map<string, ProtectedName>;
  files: Map<string, ProtectedName>;
  endings: ProtectedName[];
}

const lookups = new WeakMap<readonly ProtectedName[], Lookup>();

function lookupOf(table: readonly ProtectedName[]): Lookup {
  let lookup = lookups.get(table);
  if (!lookup) {
    const of = (kind: ProtectedName["kind"]) => table.filter((entry) => entry.kind === kind);
    lookup = {
      dirs: new Map(of("dir").map((entry) => [entry.name.toLowerCase(), entry])),
      files: new Map(of("file").map((entry) => [entry.name.toLowerCase(), entry])),
      endings: of("ending"),
    };
    lookups.set(table, lookup);
  }
  return lookup;
}

/**
 * The protected name a path's text passes through: a protected folder's name as any part (a file
 * named like one too: a `.git` file points git elsewhere), a protected file's or ending as the
 * last part. The path is taken as written: callers judge the real path (isProtectedPath).
 */
export function protectedPartOf(path: string, table: readonly ProtectedName[] = fileToolProtectedNames): { part: string; entry: ProtectedName } | undefined {
  const { dirs, files, endings } = lookupOf(table);
  const parts = path.split(/[\\/]+/).filter(Boolean);
  for (const [index, part] of parts.entries()) {
    const name = comparableName(part);
    const entry = dirs.get(name) ?? (index === parts.length - 1 ? (files.get(name) ?? endings.find((e) => name.endsWith(e.name.toLowerCase()))) : undefined);
    if (entry) return { part, entry };
  }
  return undefined;
}

/** Where the judgement is made: the table of names, and the workspaces whose sandbox's read-only places count too. */
export interface ProtectedScope {
  table?: readonly ProtectedName[];
  /** Workspace folders: a path inside one is judged by its parts below it; its read-only places (read-only-places.ts) count. */
  workspaces?: readonly string[];
  /** The home folder (start-up files, when it lies inside a workspace); $HOME by default. */
  home?: string;
}

/**
 * Why a write to `absPath` must not happen unasked, judged on its real path (every symlink
 * followed, a dangling one to what it would create): it passes through a protected name (below
 * the workspace holding it, else anywhere on the path), or lies in a place the workspace's sandbox
 * keeps read-only; a link loop too (nothing to judge by). Undefined when nothing protects it.
 */
export function protectedReason(absPath: string, scope: ProtectedScope = {}): string | undefined {
  let real: string;
  try {
    real = realPathOf(absPath);
  } catch {
    return "a loop of symbolic links";
  }
  const workspaces = (scope.workspaces ?? []).map((workspace) => ({ workspace, real: realOrSame(workspace) }));
  const holder = workspaces.filter((w) => isInside(w.real, real)).sort((a, b) => b.real.length - a.real.length)[0];
  const found = protectedPartOf(holder ? relative(holder.real, real) : real, scope.table);
  if (found) return `${found.part} is protected (${found.entry.why})`;
  for (const { workspace } of workspaces) {
    const place = readOnlyPlaces(workspace, scope.home).find((p) => isInside(p, real));
    if (place !== undefined) return `${place} is kept read-only by the sandbox (a protected name leads there, or it is git's or a start-up file)`;
  }
  return undefined;
}

/** True when protectedReason finds a reason. */
export function isProtectedPath(absPath: string, scope: ProtectedScope = {}): boolean {
  return protectedReason(absPath, scope) !== undefined;
}

/**
 * The home secret (protected-paths.ts's homeSecrets: `~/.ssh`, `~/.aws`, …) a path reaches, on its
 * real path: the sandbox hides these, so nothing outside it may read them for a sandboxed agent.
 * Judged on every place the secret is or was at (secret-places.ts: a renamed link's target too),
 * in every home of `env` (`$HOME` and the account's: secretHomes).
 */
export function hiddenSecretOf(absPath: string, env: HomeEnv = process.env): string | undefined {
  // Where it would land, a file not made yet included (a new file through a link into ~/.ssh).
  return hiddenSecretsNow(env)(realPathOrSame(absPath));
}

/**
 * hiddenSecretOf for paths already resolved, against the places as they are now: for a caller
 * judging many paths at once (finding the places costs ~6–10 µs a call, the match well under one).
 */
export function hiddenSecretsNow(env: HomeEnv = process.env): (real: string) => string | undefined {
  const places = secretPlacesOfHomes(env).map((place) => ({ name: place.name, path: place.path, below: place.path.endsWith("/") ? place.path : `${place.path}/` }));
  // Both sides are resolved absolute paths, so a prefix says it (path.relative per place cost ~1 µs each, per file).
  return (real) => places.find((place) => real === place.path || real.startsWith(place.below))?.name;
}

/** The places of home secrets at or below `root`, as real paths: a search that starts there (home opened as the workspace) leaves them out. */
export function hiddenSecretsBelow(root: string, env: HomeEnv = process.env): string[] {
  const realRoot = realPathOrSame(root);
  return secretPlacesOfHomes(env).map((place) => place.path).filter((path) => isInside(realRoot, path));
}

/**
 * The one test of "does this path pass through a protected name" (protected-paths.ts's tables),
 * for every door a write can go through: the host's permission gate and its check at the write,
 * the editor's editor_edit, an ACP agent's fs/write_text_file, a checkpoint's restore. Without
 * regard to letter case (macOS and Windows file systems usually ignore it: `.GIT/config` is
 * `.git/config` there), and as Windows opens names (`.git.`, `.git ` and `config::$DATA` are
 * `.git` and `config`).
 */
import { realPathOf } from "../real-path";
import { fileToolProtectedNames, type ProtectedName } from "./protected-paths";

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

/** True when the real path of `absPath` (every symlink resolved) passes through a protected name; a link loop counts (nothing to judge by). */
export function isProtectedPath(absPath: string, table: readonly ProtectedName[] = fileToolProtectedNames): boolean {
  let real: string;
  try {
    real = realPathOf(absPath);
  } catch {
    return true;
  }
  return protectedPartOf(real, table) !== undefined;
}

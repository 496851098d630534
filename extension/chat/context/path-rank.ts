/** A workspace file or folder, by its workspace-relative path ("/"-separated). */
export interface PathEntry {
  kind: "file" | "folder";
  path: string;
}

/**
 * The entries matching what follows `@`, best first: the name starts with the query, then the
 * name contains it, then the path contains it, then the query's characters appear in order
 * in the path (fuzzy). Shorter paths first within a group; folders before files on a tie.
 */
export function rankPaths(query: string, entries: readonly PathEntry[], limit = 50): PathEntry[] {
  const q = query.toLowerCase().replace(/^\.\//, "");
  const scored: { entry: PathEntry; score: number }[] = [];
  for (const entry of entries) {
    const score = scorePath(q, entry.path.toLowerCase());
    if (score !== undefined) scored.push({ entry, score });
  }
  scored.sort(
    (a, b) => a.score - b.score || a.entry.path.length - b.entry.path.length || (a.entry.kind === b.entry.kind ? 0 : a.entry.kind === "folder" ? -1 : 1) || a.entry.path.localeCompare(b.entry.path),
  );
  return scored.slice(0, limit).map((s) => s.entry);
}

function scorePath(q: string, path: string): number | undefined {
  if (!q) return path.split("/").length; // Shallow entries first.
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name.startsWith(q) || path.startsWith(q)) return 0;
  if (name.includes(q)) return 1;
  if (path.includes(q)) return 2;
  let at = 0;
  for (const ch of q) {
    at = path.indexOf(ch, at);
    if (at < 0) return undefined;
    at++;
  }
  return 3;
}

/** Every folder above the given files (for `@folder/` completion). */
export function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (let i = file.indexOf("/"); i > 0; i = file.indexOf("/", i + 1)) folders.add(file.slice(0, i));
  }
  return [...folders];
}

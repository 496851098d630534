/**
 * A directory walk with ignore files, for find and grep when fd/ripgrep are not used. Close to
 * what those tools do with `--hidden`: dotfiles are included, symlinks are not followed,
 * `.gitignore` (inside a git repository, or always if asked), `.ignore` and the tool's own ignore
 * file apply at every level, as do `.git/info/exclude` and the ignore files of the directories
 * between the repository root and the start. Unlike them it never enters `.git` directories.
 * Entries come depth-first in name order, so results are stable.
 */
import { dirname, join, relative, sep } from "node:path";
import { abortError, type EntryKind, type WalkIo } from "./io";
import { ignoreVerdict, parseIgnoreFiles, type IgnoreFileRules } from "./ignore-file";

export interface WalkEntry {
  absPath: string;
  /** Relative to the walk's root, forward slashes. */
  relPath: string;
  kind: EntryKind;
}

export interface WalkOptions {
  io: WalkIo;
  signal: AbortSignal;
  /** `.gitignore` applies "always" (fd with --no-require-git) or only "in-repo" (ripgrep's default). */
  gitignore: "always" | "in-repo";
  /** Further ignore files read in every directory, later ones overriding earlier ones (e.g. ".ignore"). */
  extraIgnoreFiles: string[];
  /** Also visit directories (they are always descended into unless ignored). */
  includeDirs: boolean;
  /** Also visit symlinks (as entries; never followed). */
  includeSymlinks: boolean;
  /** Return false to stop the walk. */
  visit(entry: WalkEntry): boolean | void | Promise<boolean | void>;
  /**
   * Another path naming `root`: the folder the caller opened and judged, as its descriptor in
   * /proc. What lies below `root` is read through it (a link a job flips after the judgement leads
   * elsewhere by name), and named as below `root`; the folders above are read by name.
   */
  through?: string;
}

interface Layer {
  base: string;
  rules: IgnoreFileRules;
}

const toPosix = (p: string) => (sep === "/" ? p : p.split(sep).join("/"));

async function findGitRoot(io: WalkIo, start: string): Promise<string | undefined> {
  for (let dir = start; ; dir = dirname(dir)) {
    if (await io.exists(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

async function readLayer(io: WalkIo, base: string, files: string[], at: (path: string) => string = (path) => path): Promise<Layer | undefined> {
  const texts: string[] = [];
  for (const file of files) {
    try {
      texts.push((await io.readFile(at(join(base, file)))).toString("utf-8"));
    } catch {
      // no such file (or unreadable): nothing to ignore
    }
  }
  return texts.length ? { base, rules: parseIgnoreFiles(texts) } : undefined;
}

function isIgnored(layers: Layer[], absPath: string, isDir: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const verdict = ignoreVerdict(layer.rules, toPosix(relative(layer.base, absPath)), isDir);
    if (verdict !== undefined) ignored = verdict;
  }
  return ignored;
}

/** Walks `root` (a directory). Resolves when done or stopped by `visit`; rejects on abort. */
export async function walk(root: string, options: WalkOptions): Promise<void> {
  const { io, signal } = options;
  const gitRoot = await findGitRoot(io, root);
  const names = [...(options.gitignore === "always" || gitRoot ? [".gitignore"] : []), ...options.extraIgnoreFiles];
  const layers: Layer[] = [];
  if (gitRoot) {
    const exclude = await readLayer(io, gitRoot, [".git/info/exclude"]);
    if (exclude) layers.push(exclude);
    const between: string[] = [];
    for (let dir = dirname(root); dir.length >= gitRoot.length && dir !== root; dir = dirname(dir)) {
      between.unshift(dir);
      if (dir === gitRoot || dirname(dir) === dir) break;
    }
    for (const dir of between) {
      const layer = await readLayer(io, dir, names);
      if (layer) layers.push(layer);
    }
  }

  const { through } = options;
  const at = (path: string) => (through === undefined ? path : join(through, relative(root, path)));
  const visitDir = async (dir: string): Promise<boolean> => {
    if (signal.aborted) throw abortError();
    const own = await readLayer(io, dir, names, at);
    const active = own ? [...layers, own] : layers;
    let entries: { name: string; kind: EntryKind }[];
    try {
      entries = await io.readdir(at(dir));
    } catch {
      return true; // unreadable directory: skipped, like rg/fd (which only warn)
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.kind === "dir" && entry.name === ".git") continue;
      const absPath = join(dir, entry.name);
      if (isIgnored(active, absPath, entry.kind === "dir")) continue;
      const relPath = toPosix(relative(root, absPath));
      if (entry.kind === "dir") {
        if (options.includeDirs && (await options.visit({ absPath, relPath, kind: "dir" })) === false) return false;
        if (!(await visitDir(absPath))) return false;
      } else if (entry.kind === "file" || (entry.kind === "symlink" && options.includeSymlinks)) {
        if ((await options.visit({ absPath, relPath, kind: entry.kind })) === false) return false;
      }
    }
    return true;
  };
  await visitDir(root);
}

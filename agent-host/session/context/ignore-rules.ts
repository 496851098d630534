/**
 * The `.gitignore` / `.ignore` / `.fdignore` rules pi honours while scanning skill and prompt
 * folders, matched by `ignore`, the library pi uses, the way pi feeds it: each folder's lines are
 * added with the folder's path (relative to the scan root) as a prefix, after dropping comments,
 * blank lines and a leading `/`, so `*.md` in `sub/.gitignore` means `sub/*.md` and a root
 * `/only-top/` matches at any depth. Matching is gitignore's, case-insensitive as in pi: `!`
 * re-includes, a trailing slash matches folders only, nothing below an ignored folder comes back.
 */
import type { Ignore } from "ignore";
import { readRegularText } from "../../../shared/node/regular-file";
import { join, relative, sep } from "node:path";

const IGNORE_FILES = [".gitignore", ".ignore", ".fdignore"];

export class IgnoreRules {
  /** Created with the first rule: folders without ignore files never load the library. */
  private matcher: Ignore | undefined;

  constructor(private readonly root: string) {}

  /** Adds the rules of the ignore files in `dir` (a folder at or below the root). */
  addFolder(dir: string): void {
    const rel = relative(this.root, dir).split(sep).join("/");
    const prefix = rel ? `${rel}/` : "";
    for (const name of IGNORE_FILES) {
      let text: string;
      try {
        text = readRegularText(join(dir, name));
      } catch {
        continue;
      }
      const patterns = text.split(/\r?\n/).flatMap((line) => prefixedPattern(line, prefix) ?? []);
      if (patterns.length > 0) (this.matcher ??= loadIgnore()()).add(patterns);
    }
  }

  /** Whether `path` (absolute, below the root) is ignored. */
  ignores(path: string, isDirectory: boolean): boolean {
    const rel = relative(this.root, path).split(sep).join("/");
    if (!this.matcher || !rel) return false; // `ignore` refuses "" (the root itself)
    return this.matcher.ignores(isDirectory ? `${rel}/` : rel);
  }
}

/** `ignore`, loaded with the first ignore file; the host's bundle takes it from dist/ignore.js (esbuild.mjs). */
const loadIgnore = (): typeof import("ignore") => require("ignore") as typeof import("ignore");

/** A line of an ignore file in `prefix`'s folder as a pattern for the scan root (pi's rewriting). */
function prefixedPattern(line: string, prefix: string): string | undefined {
  const trimmed = line.trim();
  if (!trimmed || (trimmed.startsWith("#") && !trimmed.startsWith("\\#"))) return undefined;
  let pattern = line;
  let negated = false;
  if (pattern.startsWith("!")) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("\\!")) {
    pattern = pattern.slice(1);
  }
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  return `${negated ? "!" : ""}${prefix}${pattern}`;
}

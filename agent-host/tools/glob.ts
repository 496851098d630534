/**
 * Globs for the walks of find and grep when no external binary does them, on `minimatch` (the
 * matcher pi uses), loaded with the first glob: `*`, `?`, `[...]`, `**`, `{a,b}`, `\` escapes,
 * matched against posix paths, dotfiles included. (Ignore files: ignore-file.ts.)
 */
import type { MinimatchOptions } from "minimatch";

const minimatch = (): typeof import("minimatch") => require("minimatch") as typeof import("minimatch");

/** fd's and ripgrep's reading: a `*` matches a leading dot too; no comments, no `!` negation here. */
const options: MinimatchOptions = { dot: true, nocomment: true, nonegate: true, optimizationLevel: 1 };

/** Never matches: a glob minimatch cannot compile. */
const nothing = /(?!)/;

/** A glob that matches the whole path. */
export const globRegExp = (glob: string): RegExp => minimatch().makeRe(glob, options) || nothing;

/**
 * A filter glob as ripgrep's `--glob` reads it: without a `/` it matches the file name at any
 * depth; with one, the path relative to the base; `!` in front excludes.
 */
export interface PathGlob {
  negated: boolean;
  matches(relPath: string): boolean;
}

export function pathGlob(glob: string): PathGlob {
  const negated = glob.startsWith("!");
  let body = negated ? glob.slice(1) : glob;
  const anchored = body.replace(/\/+$/, "").includes("/");
  body = body.replace(/^\//, "");
  const regex = globRegExp(anchored ? body : `**/${body}`);
  return { negated, matches: (relPath) => regex.test(relPath) };
}

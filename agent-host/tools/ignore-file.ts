/**
 * Ignore files (`.gitignore`, `.ignore`, `.fdignore`, `.git/info/exclude`) for the walks of find
 * and grep when no external binary does them, read by `ignore`, the gitignore library pi uses:
 * `#` comments, `!` negation, a trailing `/` for directories only, a leading or inner `/`
 * anchoring the pattern to the file's directory, the last matching rule wins. Case-sensitive, as
 * ripgrep and fd match (pi's resource scans are not: session/context/ignore-rules.ts).
 */

/** The rules of one directory's ignore files, in order (later files override earlier ones). */
export type IgnoreFileRules = ReturnType<typeof import("ignore")>;

/**
 * The rules in the texts of ignore files. `ignore` is loaded here, with the first ignore file a
 * walk finds; the host's bundle takes it from dist/ignore.js (esbuild.mjs).
 */
export function parseIgnoreFiles(texts: readonly string[]): IgnoreFileRules {
  const ignore = require("ignore") as typeof import("ignore");
  const rules = ignore({ ignorecase: false });
  for (const text of texts) rules.add(text); // a string is split into lines; an array's items are single patterns
  return rules;
}

/**
 * The verdict of a directory's rules for a path relative to that directory: true = ignored,
 * false = re-included by a `!` rule, undefined = no rule matched.
 */
export function ignoreVerdict(rules: IgnoreFileRules, relPath: string, isDir: boolean): boolean | undefined {
  const { ignored, unignored } = rules.test(isDir ? `${relPath}/` : relPath);
  return ignored ? true : unignored ? false : undefined;
}

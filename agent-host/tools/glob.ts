/**
 * Globs for the walks of find and grep when no external binary does them: `*`, `?`, `[...]`,
 * `**` as a whole segment, `{a,b}` and `\` escapes, matched against posix paths. (Ignore files:
 * ignore-file.ts.)
 */

/** Regex source for a glob matching a whole posix path (`*` never crosses `/`). */
export function globSource(glob: string): string {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1]);
      i += 2;
    } else if (c === "*") {
      let j = i;
      while (glob[j] === "*") j++;
      const wholeSegment = j - i >= 2 && (i === 0 || glob[i - 1] === "/") && (j === glob.length || glob[j] === "/");
      if (wholeSegment && glob[j] === "/") {
        out += "(?:.*/)?";
        j++;
      } else out += wholeSegment ? ".*" : "[^/]*";
      i = j;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const end = classEnd(glob, i);
      if (end === -1) {
        out += "\\[";
        i++;
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      out += `[${negated ? "^" : ""}${classBody(body)}]`;
      i = end + 1;
    } else if (c === "{") {
      const alternatives = braceAlternatives(glob, i);
      if (!alternatives) {
        out += "\\{";
        i++;
        continue;
      }
      out += `(?:${alternatives.parts.map((part) => globSource(part)).join("|")})`;
      i = alternatives.end + 1;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  return out;
}

export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** A glob class body as a regex class body: escapes kept, brackets and a lone `\\` escaped. */
function classBody(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") out += i + 1 < body.length ? `\\${body[++i]}` : "\\\\";
    else out += c === "[" || c === "]" ? `\\${c}` : c;
  }
  return out;
}

/** Index of the `]` closing a class opened at `start`, or -1 (a `]` right after `[` or `[!` is literal). */
function classEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === "!" || glob[i] === "^") i++;
  if (glob[i] === "]") i++;
  for (; i < glob.length; i++) {
    if (glob[i] === "\\") i++;
    else if (glob[i] === "]") return i;
  }
  return -1;
}

/** `{a,b,{c,d}}` at `start`: its top-level alternatives and the index of its `}`; undefined if not a brace set. */
function braceAlternatives(glob: string, start: number): { parts: string[]; end: number } | undefined {
  const parts: string[] = [];
  let depth = 0;
  let from = start + 1;
  for (let i = start; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      parts.push(glob.slice(from, i));
      return parts.length > 1 ? { parts, end: i } : undefined;
    } else if (c === "," && depth === 1) {
      parts.push(glob.slice(from, i));
      from = i + 1;
    }
  }
  return undefined;
}

/** A glob that matches the whole path. */
export const globRegExp = (glob: string): RegExp => new RegExp(`^${globSource(glob)}$`);

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
  const regex = new RegExp(`^${anchored ? "" : "(?:.*/)?"}${globSource(body)}$`);
  return { negated, matches: (relPath) => regex.test(relPath) };
}

/**
 * The `.gitignore` / `.ignore` / `.fdignore` rules pi honours while scanning skill and prompt
 * folders. Each folder's rules are added with the folder's path (relative to the scan root) as
 * a prefix, so `*.md` in `sub/.gitignore` means `sub/*.md`. Matching follows gitignore: a
 * pattern without an inner slash matches at any depth, a trailing slash matches folders only,
 * `!` re-includes, the last matching rule wins and nothing below an ignored folder comes back.
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const IGNORE_FILES = [".gitignore", ".ignore", ".fdignore"];

interface Rule {
  regex: RegExp;
  negated: boolean;
  dirOnly: boolean;
}

export class IgnoreRules {
  private readonly rules: Rule[] = [];

  constructor(private readonly root: string) {}

  /** Adds the rules of the ignore files in `dir` (a folder at or below the root). */
  addFolder(dir: string): void {
    const rel = relative(this.root, dir).split(sep).join("/");
    const prefix = rel ? `${rel}/` : "";
    for (const name of IGNORE_FILES) {
      let text: string;
      try {
        text = readFileSync(join(dir, name), "utf8");
      } catch {
        continue;
      }
      for (const line of text.split(/\r?\n/)) {
        const rule = compileRule(line, prefix);
        if (rule) this.rules.push(rule);
      }
    }
  }

  /** Whether `path` (absolute, below the root) is ignored. */
  ignores(path: string, isDirectory: boolean): boolean {
    const parts = relative(this.root, path).split(sep);
    for (let i = 1; i < parts.length; i++) {
      if (this.decide(parts.slice(0, i).join("/"), true)) return true;
    }
    return this.decide(parts.join("/"), isDirectory);
  }

  private decide(relPath: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDirectory) continue;
      if (rule.regex.test(relPath)) ignored = !rule.negated;
    }
    return ignored;
  }
}

function compileRule(line: string, prefix: string): Rule | undefined {
  const trimmed = line.trim();
  if (!trimmed || (trimmed.startsWith("#") && !trimmed.startsWith("\\#"))) return undefined;
  let pattern = line.replace(/(?<!\\)\s+$/, "");
  let negated = false;
  if (pattern.startsWith("!")) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("\\!") || pattern.startsWith("\\#")) {
    pattern = pattern.slice(1);
  }
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  pattern = prefix + pattern;
  const dirOnly = pattern.endsWith("/");
  if (dirOnly) pattern = pattern.slice(0, -1);
  if (!pattern) return undefined;
  const anchored = pattern.includes("/");
  const body = globToRegex(pattern);
  return { regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), negated, dirOnly };
}

function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      const next = glob[i + 2];
      if (atStart && next === "/") {
        out += "(?:.*/)?";
        i += 2;
      } else if (atStart && next === undefined) {
        out += ".*";
        i += 1;
      } else {
        out += "[^/]*";
        i += 1;
      }
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "\\" && i + 1 < glob.length) out += escape(glob[++i]!);
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) out += "\\[";
      else {
        const inner = glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
        out += `[${inner}]`;
        i = end;
      }
    } else out += escape(c);
  }
  return out;
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/**
 * Scalars and flow collections for yaml-subset.ts: quoting, escapes, folding, plain-scalar
 * checks and the core-schema types (null, booleans, numbers), as pi's `yaml` package reads them.
 */
export class YamlError extends Error {
  constructor(message: string, line: number) {
    super(`${message} (line ${line + 1})`);
    this.name = "YamlError";
  }
}

export type Yaml = null | boolean | number | string | Yaml[] | { [key: string]: Yaml };

export const isSeqItem = (content: string): boolean => content === "-" || content.startsWith("- ");

export function fold(lines: string[]): string {
  let out = "";
  let previous: "text" | "more" | undefined;
  let blanks = 0;
  for (const line of lines) {
    if (line === "") {
      blanks++;
      continue;
    }
    const more = /^[ \t]/.test(line);
    if (previous === undefined) out = "\n".repeat(blanks) + line;
    else if (previous === "text" && !more) out += (blanks ? "\n".repeat(blanks) : " ") + line;
    else out += "\n" + "\n".repeat(blanks) + line;
    previous = more ? "more" : "text";
    blanks = 0;
  }
  return out;
}

export function checkPlainStart(text: string, line: number): void {
  if (/^[@`]/.test(text)) throw new YamlError(`Plain value cannot start with reserved character ${text[0]}`, line);
  if (text.startsWith("%")) throw new YamlError("Plain value cannot start with directive indicator character %", line);
  if (text.startsWith("*")) throw new YamlError("Aliases are not supported", line);
  if (isSeqItem(text)) throw new YamlError("A block sequence cannot start on the same line as its key", line);
  if (text.startsWith("? ")) throw new YamlError("Nested mappings are not allowed in compact mappings", line);
}

/** One line of a plain scalar: cut at a comment; `a: b` inside is an error, as in `yaml`. */
export function plainPart(text: string, line: number): { text: string; ended: boolean } {
  const hash = text.search(/\s#/);
  const body = (hash === -1 ? text : text.slice(0, hash)).trim();
  if (/:(\s|$)/.test(body)) throw new YamlError("Nested mappings are not allowed in compact mappings", line);
  return { text: body, ended: hash !== -1 };
}

/** Index just after the closing quote of a quoted scalar starting at 0, or -1. */
export function quoteEnd(text: string, q: string): number {
  for (let i = 1; i < text.length; i++) {
    if (q === '"' && text[i] === "\\") i++;
    else if (text[i] === q) {
      if (q === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

const ESCAPES: Record<string, string> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b",
  " ": " ", '"': '"', "/": "/", "\\": "\\", N: "\u0085", _: "\u00a0", L: "\u2028", P: "\u2029",
};

export function unquote(quoted: string, q: string): string {
  const inner = quoted.slice(1, -1);
  // Line folding: a line break and the indentation around it become one space; empty lines become "\n".
  const lines = inner.split("\n");
  let text = "";
  lines.forEach((raw, i) => {
    let line = i === 0 ? raw : raw.trimStart();
    if (i < lines.length - 1) line = line.trimEnd();
    if (i === 0) text = line;
    else if (line === "" && i < lines.length - 1) text += "\n";
    else if (q === '"' && /(^|[^\\])(\\\\)*\\$/.test(text)) text = text.slice(0, -1) + line;
    else text += (text.endsWith("\n") ? "" : " ") + line;
  });
  if (q === "'") return text.replace(/''/g, "'");
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_m, e: string) => {
    if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    const v = ESCAPES[e];
    if (v === undefined) throw new YamlError(`Invalid escape sequence \\${e}`, 0);
    return v;
  });
}

/** Index just after the bracket closing the flow collection that starts at 0, or -1. */
export function flowEnd(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const end = quoteEnd(text.slice(i), c);
      if (end === -1) return -1;
      i += end - 1;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") if (--depth === 0) return i + 1;
  }
  return -1;
}

export function parseFlow(text: string, line: number): Yaml {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const value = (): Yaml => {
    ws();
    const c = text[i];
    if (c === "[" || c === "{") {
      const close = c === "[" ? "]" : "}";
      const seq: Yaml[] = [];
      const map: { [key: string]: Yaml } = {};
      i++;
      for (ws(); text[i] !== close; ws()) {
        if (i >= text.length) throw new YamlError("Unclosed flow collection", line);
        const item = value();
        ws();
        let entry: Yaml = item;
        if (text[i] === ":") {
          i++;
          entry = value();
          ws();
        } else if (c === "{") entry = null;
        if (c === "[") seq.push(entry);
        else map[String(item)] = entry;
        if (text[i] === ",") i++;
        else if (text[i] !== close) throw new YamlError("Missing , between flow collection items", line);
      }
      i++;
      return c === "[" ? seq : map;
    }
    if (c === '"' || c === "'") {
      const end = quoteEnd(text.slice(i), c);
      const s = unquote(text.slice(i, i + end), c);
      i += end;
      return s;
    }
    if (/^[|>%@`]/.test(text.slice(i))) throw new YamlError("Plain value cannot start with an indicator character", line);
    const m = /^(?:[^,[\]{}:]|:(?=[^\s,[\]{}]))*/.exec(text.slice(i))!;
    i += m[0].length;
    return resolveScalar(m[0].trim().replace(/\s+/g, " "));
  };
  const result = value();
  ws();
  if (i < text.length) throw new YamlError("Unexpected text after a flow collection", line);
  return result;
}

/** Core-schema type of a plain scalar. */
export function resolveScalar(text: string): Yaml {
  if (/^(?:~|null|Null|NULL)?$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}

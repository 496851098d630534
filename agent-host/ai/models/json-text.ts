/**
 * JSON as pi reads its config files: comments and trailing commas allowed, errors with line and
 * column, and through the foreign-JSON door (null-prototype data, no `__proto__`, `constructor`
 * or `prototype` key; each one dropped is a notice).
 */
import { parseForeignJson } from "../../../shared/foreign-json";

/** Replaces comments and trailing commas with spaces (keeping offsets), leaving strings alone. */
export function stripJsonExtras(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  };
  let i = 0;
  let lastComma = -1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      lastComma = -1;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      blank(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      blank(i, end < 0 ? text.length : end + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ",") {
      lastComma = i++;
    } else if (c === "}" || c === "]") {
      if (lastComma >= 0) out[lastComma] = " ";
      lastComma = -1;
      i++;
    } else {
      if (!/\s/.test(c)) lastComma = -1;
      i++;
    }
  }
  return out.join("");
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line}, column ${column}`;
}

/** Parses JSON text as pi reads its config files; a syntax error says where (line and column). */
export function parseJsonText(text: string): { ok: true; value: unknown; notices: readonly string[] } | { ok: false; error: string } {
  const cleaned = stripJsonExtras(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const parsed = parseForeignJson(cleaned);
  if (parsed.ok) return parsed;
  const position = /position (\d+)/.exec(parsed.error);
  const where = position ? ` (${lineAndColumn(cleaned, Number(position[1]))})` : "";
  return { ok: false, error: `invalid JSON${where}: ${parsed.error}` };
}

/**
 * Markdown frontmatter as pi reads it (skills, prompt templates): the text must start with
 * `---`; the YAML runs to the first line starting with `---`; the body is what follows, trimmed.
 * Without a closing line there is no frontmatter and the body is the whole (untrimmed) text.
 * Line endings become LF and a byte-order mark is dropped first.
 */
import { stripBom } from "./resources";
import { parseYaml } from "./yaml-subset";

export interface Frontmatter {
  /** The YAML mapping; `{}` when there is none or the YAML is not a mapping. */
  data: Record<string, unknown>;
  body: string;
}

/** Throws a YamlError when the frontmatter is not valid YAML. */
export function parseFrontmatter(text: string): Frontmatter {
  const normalized = stripBom(text).replace(/\r\n?/g, "\n");
  if (!normalized.startsWith("---")) return { data: {}, body: normalized };
  const end = normalized.indexOf("\n---", 3);
  if (end === -1) return { data: {}, body: normalized };
  const yaml = normalized.slice(4, end);
  const body = normalized.slice(end + 4).trim();
  if (!yaml) return { data: {}, body };
  const value = parseYaml(yaml);
  const data = value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
  return { data, body };
}

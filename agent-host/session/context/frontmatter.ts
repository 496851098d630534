/**
 * Markdown frontmatter as pi reads it (skills, prompt templates): the text must start with
 * `---`; the YAML runs to the first line starting with `---`; the body is what follows, trimmed.
 * Without a closing line there is no frontmatter and the body is the whole (untrimmed) text.
 * Line endings become LF and a byte-order mark is dropped first. The YAML is read by `yaml`'s
 * `parse`, the library and call pi uses, so values and errors are pi's.
 */
import { stripBom } from "./resources";

export interface Frontmatter {
  /** The YAML mapping; `{}` when there is none or the YAML is not a mapping. */
  data: Record<string, unknown>;
  body: string;
}

/**
 * `yaml`, loaded with the first frontmatter read: a host without skills or templates never loads
 * it. The host's bundle takes it from dist/yaml.js, a file of its own (esbuild.mjs).
 */
let yamlParse: typeof import("yaml").parse | undefined;
const parseYaml = (text: string): unknown => (yamlParse ??= (require("yaml") as typeof import("yaml")).parse)(text);

/** Throws `yaml`'s YAMLParseError (its message names the line and column) when the frontmatter is not valid YAML. */
export function parseFrontmatter(text: string): Frontmatter {
  const normalized = stripBom(text).replace(/\r\n?/g, "\n");
  if (!normalized.startsWith("---")) return { data: {}, body: normalized };
  const end = normalized.indexOf("\n---", 3);
  if (end === -1) return { data: {}, body: normalized };
  const yaml = normalized.slice(4, end);
  const body = normalized.slice(end + 4).trim();
  if (!yaml) return { data: {}, body };
  const value = parseYaml(yaml);
  const data = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { data, body };
}

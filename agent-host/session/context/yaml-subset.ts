/**
 * The part of YAML 1.2 that Markdown frontmatter uses, parsed the way pi's `yaml` package does
 * (core schema): block mappings and sequences, plain / single- / double-quoted scalars (also
 * over several lines), `|` and `>` block scalars with chomping and indentation indicators, flow
 * `[...]` / `{...}`, comments, anchors and tags (ignored). Where `yaml` rejects a document this
 * throws a YamlError: duplicate keys, `key: a: b`, tabs as indentation, unclosed quotes, values
 * starting with a reserved character, aliases, misaligned entries. Not supported (also errors):
 * complex `?` keys, aliases, multiple documents.
 */
import {
  checkPlainStart, flowEnd, fold, isSeqItem, parseFlow, plainPart, quoteEnd, resolveScalar, unquote, YamlError, type Yaml,
} from "./yaml-scalars";

export { YamlError, type Yaml };

/** Leading spaces (tabs never indent in YAML). */
const indentOf = (line: string): number => line.length - line.replace(/^ +/, "").length;
const isBlank = (line: string): boolean => line.trim() === "" || line.trimStart().startsWith("#");

export function parseYaml(source: string): Yaml {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return new Parser(lines).document();
}

class Parser {
  private pos = 0;

  constructor(private readonly lines: string[]) {}

  /** The text of a structural line after its indentation; a tab there would be indentation. */
  private content(line: string, indent: number): string {
    const content = line.slice(indent);
    if (content.startsWith("\t")) throw new YamlError("Tabs are not allowed as indentation", this.pos);
    return content;
  }

  document(): Yaml {
    const value = this.blockNode(-1);
    this.skipBlank();
    if (this.pos < this.lines.length) throw new YamlError("Unexpected content after the document", this.pos);
    return value;
  }

  /** An empty value followed by whitespace-only lines with tabs: `yaml` takes the tabs as indentation. */
  private noTabsIn(from: number, to: number): void {
    for (let i = from; i < to && this.lines[i]!.trim() === ""; i++) {
      if (this.lines[i]!.includes("\t")) throw new YamlError("Tabs are not allowed as indentation", i);
    }
  }

  private skipBlank(): void {
    while (this.pos < this.lines.length && isBlank(this.lines[this.pos]!)) this.pos++;
  }

  /** A node on the following lines, indented deeper than `parent` (null when there is none). */
  private blockNode(parent: number): Yaml {
    this.skipBlank();
    const line = this.lines[this.pos];
    if (line === undefined || indentOf(line) <= parent) return null;
    const indent = indentOf(line);
    const content = this.content(line, indent);
    if (isSeqItem(content)) return this.blockSequence(indent);
    if (mappingEntry(content, this.pos)) return this.blockMapping(indent);
    this.pos++;
    return this.inlineValue(content, parent);
  }

  private blockMapping(indent: number): Yaml {
    const map: { [key: string]: Yaml } = {};
    for (;;) {
      this.skipBlank();
      const line = this.lines[this.pos];
      if (line === undefined || indentOf(line) < indent) return map;
      if (indentOf(line) > indent) throw new YamlError("All mapping items must start at the same column", this.pos);
      const content = this.content(line, indent);
      if (isSeqItem(content)) throw new YamlError("A block sequence may not be used as an implicit map key", this.pos);
      const entry = mappingEntry(content, this.pos);
      if (!entry) throw new YamlError("Implicit map keys need to be followed by map values", this.pos);
      if (Object.prototype.hasOwnProperty.call(map, entry.key)) throw new YamlError("Map keys must be unique", this.pos);
      this.pos++;
      map[entry.key] = this.valueAfterKey(entry.rest, indent);
    }
  }

  private blockSequence(indent: number): Yaml {
    const items: Yaml[] = [];
    for (;;) {
      this.skipBlank();
      const line = this.lines[this.pos];
      if (line === undefined || indentOf(line) < indent) return items;
      const content = this.content(line, indent);
      if (indentOf(line) > indent || !isSeqItem(content)) {
        if (indentOf(line) === indent) return items;
        throw new YamlError("Bad indentation of a sequence entry", this.pos);
      }
      const rest = content.slice(1);
      if (rest.trim() === "" || rest.trim().startsWith("#")) {
        this.pos++;
        items.push(this.blockNode(indent));
        continue;
      }
      // "- key: v" and "- - x": re-read the item as a node indented where its text starts.
      const itemIndent = indent + 1 + indentOf(rest);
      this.lines[this.pos] = " ".repeat(itemIndent) + rest.trimStart();
      items.push(this.blockNode(indent));
    }
  }

  private valueAfterKey(rest: string, indent: number): Yaml {
    let text = rest.trim();
    while (/^[&!]\S*(\s|$)/.test(text)) text = text.replace(/^[&!]\S*\s*/, "");
    if (text === "" || text.startsWith("#")) {
      const start = this.pos;
      this.skipBlank();
      const next = this.lines[this.pos];
      if (next !== undefined && indentOf(next) === indent && isSeqItem(next.slice(indent))) return this.blockSequence(indent);
      const value = this.blockNode(indent);
      if (value === null) this.noTabsIn(start, this.pos);
      return value;
    }
    if (text.startsWith("|") || text.startsWith(">")) return this.blockScalar(text, indent);
    return this.inlineValue(text, indent);
  }

  /** A scalar or flow collection starting on the line just consumed; may continue on deeper lines. */
  private inlineValue(text: string, parent: number): Yaml {
    const first = this.pos - 1;
    const c = text[0];
    if (c === '"' || c === "'" || c === "[" || c === "{") {
      let source = text;
      for (;;) {
        const end = c === "[" || c === "{" ? flowEnd(source) : quoteEnd(source, c);
        if (end !== -1) {
          const tail = source.slice(end).trim();
          if (tail && !tail.startsWith("#")) throw new YamlError("Unexpected text after a quoted or flow value", this.pos - 1);
          const body = source.slice(0, end);
          return c === "[" || c === "{" ? parseFlow(body, first) : unquote(body, c);
        }
        const next = this.lines[this.pos];
        if (next === undefined || (next.trim() !== "" && indentOf(next) <= parent)) {
          throw new YamlError(c === "[" || c === "{" ? "Unclosed flow collection" : `Missing closing ${c}quote`, first);
        }
        source += "\n" + next;
        this.pos++;
      }
    }
    checkPlainStart(text, first);
    let value = plainPart(text, first);
    let multiline = false;
    for (let next = this.pos, blanks = 0; !value.ended && next < this.lines.length; next++) {
      const line = this.lines[next]!;
      if (line.trim() === "") {
        blanks++;
        continue;
      }
      if (indentOf(line) <= parent || line.trimStart().startsWith("#")) break;
      const part = plainPart(line.trim(), next);
      value = { text: value.text + (blanks ? "\n".repeat(blanks) : " ") + part.text, ended: part.ended };
      multiline = true;
      blanks = 0;
      this.pos = next + 1;
    }
    return multiline ? value.text : resolveScalar(value.text);
  }

  private blockScalar(header: string, parent: number): string {
    const m = /^([|>])([-+]?)([1-9]?)([-+]?)\s*(#.*)?$/.exec(header);
    if (!m || (m[2] && m[4])) throw new YamlError("Invalid block scalar header", this.pos - 1);
    const chomp = m[2] || m[4];
    const raw: string[] = [];
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos]!;
      if (line.trim() !== "" && indentOf(line) <= parent) break;
      raw.push(line);
      this.pos++;
    }
    const firstText = raw.find((l) => l.trim() !== "");
    if (firstText === undefined && raw.some((l) => l.includes("\t"))) throw new YamlError("Tabs are not allowed as indentation", this.pos);
    const indent = m[3] ? Math.max(parent, 0) + Number(m[3]) : firstText === undefined ? 0 : indentOf(firstText);
    const lines = raw.map((line, i) => {
      const short = line.trim() === "" ? line.slice(0, indent).includes("\t") : indentOf(line) < indent;
      if (short) throw new YamlError("Bad indentation in a block scalar", this.pos - raw.length + i);
      return line.slice(indent);
    });
    let trailing = 0;
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") {
      lines.pop();
      trailing++;
    }
    const body = m[1] === "|" ? lines.join("\n") : fold(lines);
    if (body === "") return chomp === "+" ? "\n".repeat(trailing) : "";
    if (chomp === "-") return body;
    return body + "\n" + (chomp === "+" ? "\n".repeat(trailing) : "");
  }
}

/** `key: rest` at the start of `content`, or undefined when the line is not a mapping entry. */
function mappingEntry(content: string, line: number): { key: string; rest: string } | undefined {
  if (content.startsWith("? ") || content === "?") throw new YamlError("Complex mapping keys are not supported", line);
  const q = content[0];
  if (q === '"' || q === "'") {
    const end = quoteEnd(content, q);
    if (end === -1) return undefined;
    const after = /^\s*:(\s|$)/.exec(content.slice(end));
    return after ? { key: unquote(content.slice(0, end), q), rest: content.slice(end + after[0].length) } : undefined;
  }
  if (q === "[" || q === "{" || q === "#") return undefined;
  const m = /^(.*?)\s*:(\s|$)/.exec(content);
  if (!m || m[1]!.includes(" #")) return undefined;
  return { key: String(resolveScalar(m[1]!)), rest: content.slice(m[0].length) };
}


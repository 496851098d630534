/**
 * Finds the complete JSON objects in a document's text (seed documents, Pi's docs): every
 * balanced {...} that parses, outermost first. Used by the schema tests.
 */
export interface DocExample {
  source: string;
  line: number;
  value: Record<string, unknown>;
}

export function extractJsonObjects(text: string, source: string): DocExample[] {
  const found: DocExample[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("{", i);
    if (start === -1) break;
    const end = matchingBrace(text, start);
    if (end !== -1) {
      try {
        const value = JSON.parse(text.slice(start, end + 1)) as unknown;
        if (value && typeof value === "object" && !Array.isArray(value)) {
          found.push({ source, line: text.slice(0, start).split("\n").length, value: value as Record<string, unknown> });
          i = end + 1;
          continue;
        }
      } catch {
        // not JSON (TypeScript, placeholders such as {...}): look inside it
      }
    }
    i = start + 1;
  }
  return found;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
}

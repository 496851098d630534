/**
 * Best-effort parse of a JSON object that is still streaming in (tool-call arguments):
 * closes open strings, arrays and objects and drops a dangling key or separator.
 */
export function parsePartialJson(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (!trimmed) return {};
  try {
    return asObject(JSON.parse(trimmed));
  } catch {
    // fall through to repair
  }
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of trimmed) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") closers.push("}");
    else if (ch === "[") closers.push("]");
    else if (ch === "}" || ch === "]") closers.pop();
  }
  let repaired = trimmed;
  if (inString) repaired += escaped ? '\\"' : '"';
  for (let attempt = 0; attempt < 3; attempt++) {
    const candidate = repaired.replace(/[,:]\s*$/, "") + [...closers].reverse().join("");
    try {
      return asObject(JSON.parse(candidate));
    } catch {
      // drop a trailing key without value ("a": or "a") and try again
      repaired = repaired.replace(/,?\s*"[^"]*"\s*:?\s*$/, "");
    }
  }
  return {};
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

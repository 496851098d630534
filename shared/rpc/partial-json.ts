import { parseForeignFrame } from "../foreign-json";

/**
 * Best-effort parse of a JSON object that is still streaming in (tool-call arguments):
 * closes open strings, arrays and objects and drops a dangling key or separator. The text is the
 * agent's (foreign): it goes through the foreign-JSON door, so no key can reach a prototype.
 */
export function parsePartialJson(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (!trimmed) return {};
  const whole = parseForeignFrame(trimmed);
  if (whole.ok) return asObject(whole.value);
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
    const parsed = parseForeignFrame(candidate);
    if (parsed.ok) return asObject(parsed.value);
    // drop a trailing key without value ("a": or "a") and try again
    repaired = repaired.replace(/,?\s*"[^"]*"\s*:?\s*$/, "");
  }
  return {};
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

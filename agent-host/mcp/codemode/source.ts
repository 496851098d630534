/**
 * A codemode script's source: raw JavaScript, optionally starting with one options line,
 * `// @options: {"max_output_tokens": 2000, "timeout_ms": 60000}` (Pi's docs/codemode.md). An
 * options line anywhere but the first line fails the call before the script runs, rather than
 * being ignored without notice.
 */
import { errorText } from "../../../shared/error-text";
export const OPTIONS_PREFIX = "// @options:";
const FIELDS = "`max_output_tokens` and `timeout_ms`";
/** The longest delay a Node timer supports. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export interface ScriptOptions {
  maxOutputTokens?: number;
  timeoutMs?: number;
}

export interface ParsedSource {
  code: string;
  options: ScriptOptions;
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

function parseOptions(json: string): ScriptOptions {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error(`@options must be valid JSON with supported fields ${FIELDS}: ${errorText(error)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`@options must be a JSON object with supported fields ${FIELDS}`);
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (key !== "max_output_tokens" && key !== "timeout_ms") throw new Error(`@options only supports ${FIELDS}; got \`${key}\``);
  const options: ScriptOptions = {};
  if (fields.max_output_tokens !== undefined) {
    if (!isCount(fields.max_output_tokens)) throw new Error("@options field `max_output_tokens` must be a non-negative safe integer");
    options.maxOutputTokens = fields.max_output_tokens;
  }
  if (fields.timeout_ms !== undefined) {
    if (!isCount(fields.timeout_ms) || fields.timeout_ms === 0 || fields.timeout_ms > MAX_TIMEOUT_MS) throw new Error(`@options field \`timeout_ms\` must be a positive integer up to ${MAX_TIMEOUT_MS}`);
    options.timeoutMs = fields.timeout_ms;
  }
  return options;
}

/** Splits the options line from the script; throws for an empty script, bad options or a misplaced options line. */
export function parseSource(input: string): ParsedSource {
  if (input.trim() === "") throw new Error('Expected JavaScript source text (non-empty). Provide JS only, optionally with a first line `// @options: {"max_output_tokens": 1000}`.');
  const lines = input.split("\n");
  const misplaced = lines.findIndex((line, index) => index > 0 && line.trimStart().startsWith(OPTIONS_PREFIX));
  if (misplaced !== -1) throw new Error(`The ${OPTIONS_PREFIX} line must be the first line of the input; found one on line ${misplaced + 1}`);
  const first = (lines[0] ?? "").replace(/\r$/, "").trimStart();
  if (!first.startsWith(OPTIONS_PREFIX)) return { code: input, options: {} };
  const newline = input.indexOf("\n");
  const code = newline === -1 ? "" : input.slice(newline);
  if (code.trim() === "") throw new Error("The @options line must be followed by JavaScript source on subsequent lines");
  return { code, options: parseOptions(first.slice(OPTIONS_PREFIX.length).trim()) };
}

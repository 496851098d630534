/**
 * The one door for JSON text from outside the process (a file, the wire): parsed, then made
 * inert (data.ts) so that `__proto__`, `constructor` and `prototype` never reach an object.
 * Platform-free.
 */
import { toInertData } from "./data";
import { errorText } from "../error-text";

export type ForeignJson = { ok: true; value: unknown; notices: readonly string[] } | { ok: false; error: string };

/** The notices of a frame that needed no walk: one shared empty list, so the fast path allocates nothing more. */
const NO_NOTICES: readonly string[] = Object.freeze([]);

/**
 * Could the text hold a forbidden key? Literally, or through a `\u` escape (JSON.parse decodes
 * `"\u005f\u005fproto__"`). Text that cannot needs no walk: see `parseForeignFrame`.
 */
export function mayHoldForbiddenKey(text: string): boolean {
  // "proto" covers `__proto__` and `prototype`; indexOf is several times cheaper than one regex.
  return text.includes("proto") || text.includes("constructor") || text.includes("\\u");
}

function parse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

/**
 * Files and other text read once (settings, models.json, auth.json, trust.json, session files):
 * every object comes back with a null prototype and without forbidden keys, each dropped key a
 * notice. A leading BOM is skipped.
 */
export function parseForeignJson(text: string): ForeignJson {
  const parsed = parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!parsed.ok) return parsed;
  const notices: string[] = [];
  return { ok: true, value: toInertData(parsed.value, notices), notices };
}

/**
 * One frame of a stream (an RPC line), where every event pays the cost: the walk runs only when
 * the text could hold a forbidden key (see `mayHoldForbiddenKey`). Otherwise the value is
 * JSON.parse's own: ordinary objects whose own keys include no forbidden one, so no merge or
 * assignment of them can reach a prototype. Frames are checked against their schema next.
 */
export function parseForeignFrame(text: string): ForeignJson {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
  if (!mayHoldForbiddenKey(text)) return { ok: true, value, notices: NO_NOTICES };
  const notices: string[] = [];
  return { ok: true, value: toInertData(value, notices), notices };
}

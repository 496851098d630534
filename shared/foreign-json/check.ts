/**
 * Foreign data checked against its schema without failing the whole of it: each unknown key
 * (a schema object declared `additionalProperties: false`) and each value of the wrong shape is
 * dropped with a notice, and the rest is checked again, until it passes. Only a top-level value
 * of the wrong shape fails. The errors are the schema validator's own (AJV's, precompiled in the
 * host), so no walk of the schema is written here. Platform-free.
 */
import { placePath } from "./data";
import { parseForeignJson } from "./parse";

/** The part of an AJV error this needs. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled schema check: true, or false with its errors in `errors` (AJV's ValidateFunction). */
export interface SchemaValidator {
  (value: unknown): boolean;
  errors?: SchemaError[] | null;
}

export type CheckedForeign<T> = { ok: true; value: T; notices: string[] } | { ok: false; error: string; notices: string[] };

/** `/a/0/b` (JSON pointer) as the keys it names. */
function pointerKeys(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function where(keys: string[]): string {
  let place: { parent: never; key: string | number } | undefined;
  for (const key of keys) place = { parent: place as never, key: /^\d+$/.test(key) ? Number(key) : key };
  return placePath(place);
}

/** Marks an array element to drop; the arrays are compacted once a round (splicing each is quadratic). */
const DROPPED = Symbol("dropped");

/** Removes the value at `keys` (an array element is marked, and its array noted in `arrays`); false when there is none. */
function remove(root: unknown, keys: string[], arrays: Set<unknown[]>): boolean {
  let parent: unknown = root;
  for (const key of keys.slice(0, -1)) {
    if (parent === null || typeof parent !== "object" || !Object.hasOwn(parent, key)) return false;
    parent = (parent as Record<string, unknown>)[key];
  }
  const last = keys[keys.length - 1];
  if (last === undefined || parent === null || typeof parent !== "object" || !Object.hasOwn(parent, last)) return false;
  if (Array.isArray(parent)) {
    if (parent[Number(last)] === DROPPED) return false;
    parent[Number(last)] = DROPPED;
    arrays.add(parent as unknown[]);
  } else delete (parent as Record<string, unknown>)[last];
  return true;
}

function compact(arrays: Set<unknown[]>): void {
  for (const array of arrays) {
    let kept = 0;
    for (const item of array) if (item !== DROPPED) array[kept++] = item;
    array.length = kept;
  }
}

/** Notices past this many are counted in one last line: a file of 100,000 bad values is not 100,000 problems to show. */
const MAX_NOTICES = 50;

/**
 * Checks `value` (already inert: see toInertData) with `validate`, dropping what does not fit in
 * place. Returns the value, now valid, and a notice for each part dropped. Each round drops every
 * place the validator named, so a file with thousands of bad values takes a few rounds, not one
 * per value.
 */
export function checkForeign<T>(value: unknown, validate: SchemaValidator, notices: string[] = []): CheckedForeign<T> {
  let more = 0;
  const withMore = (): string[] => (more > 0 ? [...notices, `and ${more} more dropped`] : notices);
  // A dropped value can only make its parent invalid (a required key), so rounds are bounded by the depth.
  for (let round = 0; round < 64; round++) {
    if (validate(value)) return { ok: true, value: value as T, notices: withMore() };
    const places = new Map<string, { keys: string[]; notice: string }>();
    for (const error of validate.errors ?? []) {
      const unknownKey = error.keyword === "additionalProperties";
      const keys = unknownKey ? [...pointerKeys(error.instancePath), String(error.params.additionalProperty)] : pointerKeys(error.instancePath);
      // A top-level value of the wrong shape cannot be dropped in part.
      if (keys.length === 0) continue;
      const id = keys.join("\u0000");
      if (!places.has(id)) places.set(id, { keys, notice: unknownKey ? "unknown key dropped" : `${error.message ?? error.keyword}; dropped` });
    }
    let dropped = false;
    const arrays = new Set<unknown[]>();
    for (const { keys, notice } of places.values()) {
      if (!remove(value, keys, arrays)) continue;
      if (notices.length < MAX_NOTICES) notices.push(`${where(keys)}: ${notice}`);
      else more++;
      dropped = true;
    }
    compact(arrays);
    if (!dropped) {
      const top = (validate.errors ?? []).find((e) => e.keyword !== "additionalProperties");
      return { ok: false, error: `${top?.instancePath || "$"}: ${top?.message ?? "invalid"}`, notices: withMore() };
    }
  }
  return { ok: false, error: "too many problems", notices: withMore() };
}

/**
 * A whole foreign file: parsed through the door, then checked with `validate`. A file of a new
 * kind (mcp.json, issue #33) needs only its schema (objects `additionalProperties: false` where
 * unknown keys are to be dropped with a notice) and this call.
 */
export function parseForeignFile<T>(text: string, validate: SchemaValidator): CheckedForeign<T> {
  const parsed = parseForeignJson(text);
  if (!parsed.ok) return { ok: false, error: parsed.error, notices: [] };
  return checkForeign<T>(parsed.value, validate, [...parsed.notices]);
}

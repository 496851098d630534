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

/** Removes the value at `keys` (an array element is spliced out); false when there is none. */
function remove(root: unknown, keys: string[]): boolean {
  let parent: unknown = root;
  for (const key of keys.slice(0, -1)) {
    if (parent === null || typeof parent !== "object" || !Object.hasOwn(parent, key)) return false;
    parent = (parent as Record<string, unknown>)[key];
  }
  const last = keys[keys.length - 1];
  if (last === undefined || parent === null || typeof parent !== "object" || !Object.hasOwn(parent, last)) return false;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Record<string, unknown>)[last];
  return true;
}

/**
 * Checks `value` (already inert: see toInertData) with `validate`, dropping what does not fit in
 * place. Returns the value, now valid, and a notice for each part dropped.
 */
export function checkForeign<T>(value: unknown, validate: SchemaValidator, notices: string[] = []): CheckedForeign<T> {
  // Each round drops at least one value, so this ends; the bound only guards against a validator
  // that reports an error for a value it does not name.
  for (let round = 0; round < 10_000; round++) {
    if (validate(value)) return { ok: true, value: value as T, notices };
    let dropped = false;
    for (const error of validate.errors ?? []) {
      if (error.keyword === "additionalProperties") {
        const keys = [...pointerKeys(error.instancePath), String(error.params.additionalProperty)];
        if (remove(value, keys)) {
          notices.push(`${where(keys)}: unknown key dropped`);
          dropped = true;
        }
        continue;
      }
      const keys = pointerKeys(error.instancePath);
      // A missing required key is the parent's fault: drop the parent.
      if (keys.length === 0) continue;
      if (remove(value, keys)) {
        notices.push(`${where(keys)}: ${error.message ?? error.keyword}; dropped`);
        dropped = true;
        break; // indices of the other errors may have moved
      }
    }
    if (!dropped) {
      const top = (validate.errors ?? []).find((e) => e.keyword !== "additionalProperties");
      return { ok: false, error: `${top?.instancePath || "$"}: ${top?.message ?? "invalid"}`, notices };
    }
  }
  return { ok: false, error: "too many problems", notices };
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

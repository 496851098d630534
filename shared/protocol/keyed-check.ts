import type { default as Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { TSchema } from "@sinclair/typebox";
import { createAjv, precompiledValidator, validatorOptions } from "./ajv";

/**
 * The core of every frame check: a validator by key (compiled at build time where the program
 * registered it, else on first use) and its verdict. Apart from validate.ts, so that a program
 * that checks only a few frames (the pool, shared/protocol/pool-check.ts) loads no other schema.
 */
export type Checked<T> = { ok: true; frame: T } | { ok: false; error: string; id?: string; type?: string };

// validateSchema: false — the schemas come from TypeBox (and are tested), so AJV need not compile
// the draft-07 meta-schema to check them: that compile alone cost ~20 ms of the agent host's
// start-up (it runs on the first command, usually get_state; see bench/RESULTS.md).
let ajv: Ajv | undefined;
export const compile = (schema: TSchema): ValidateFunction => (ajv ??= createAjv(validatorOptions)).compile(schema);
/** Validators are compiled on first use of each frame type, so start-up pays only for what it sees. */
const cache = new Map<string, ValidateFunction>();

/** The agent host's inbound validators are compiled at build time: see precompiledSchemas. */
export function validator(key: string, make: () => TSchema): ValidateFunction {
  let fn = cache.get(key);
  if (!fn) {
    fn = precompiledValidator(key) ?? compile(make());
    cache.set(key, fn);
  }
  return fn;
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return "invalid";
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === "anyOf") continue;
    const where = e.instancePath || "frame";
    const what = e.keyword === "required" ? `missing ${String(e.params.missingProperty)}` : e.message ?? e.keyword;
    seen.add(`${where}: ${what}`);
    if (seen.size >= 5) break;
  }
  return [...seen].join("; ");
}

export function head(value: unknown): { id?: string; type?: string } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { id, type } = value as { id?: unknown; type?: unknown };
  return { id: typeof id === "string" ? id : undefined, type: typeof type === "string" ? type : undefined };
}

export function check<T>(fn: ValidateFunction, value: unknown, id: string | undefined, type: string): Checked<T> {
  if (fn(value)) return { ok: true, frame: value as T };
  return { ok: false, error: `Invalid ${type}: ${describeErrors(fn.errors)}`, id, type };
}


import type { default as Ajv, Options, ValidateFunction } from "ajv";

/**
 * AJV, loaded when a validator is first compiled: a program whose validators were compiled at
 * build time (the agent host, see precompiled.ts) never loads the compiler at all.
 */
/** The bundler's require (shared/ has no Node types: this is the one place it is used). */
declare const require: (id: string) => unknown;

export function createAjv(options: Options): Ajv {
  // A literal require inside the function: bundlers include AJV but run it only from here.
  const { default: AjvClass } = require("ajv") as typeof import("ajv");
  return new AjvClass(options);
}

const precompiled = new Map<string, ValidateFunction>();
/** Loaders of validator sets needed later than start-up, by key prefix; each runs at most once. */
const deferred = new Map<string, () => Record<string, ValidateFunction>>();

/** Validators compiled at build time (AJV standalone code), by the key their users look up. */
export function registerPrecompiled(validators: Record<string, ValidateFunction>): void {
  for (const [key, fn] of Object.entries(validators)) precompiled.set(key, fn);
}

/** A set of precompiled validators whose keys start with `prefix`, loaded when one is first looked up. */
export function registerDeferredPrecompiled(prefix: string, load: () => Record<string, ValidateFunction>): void {
  deferred.set(prefix, load);
}

export function precompiledValidator(key: string): ValidateFunction | undefined {
  const found = precompiled.get(key);
  if (found || deferred.size === 0) return found;
  for (const [prefix, load] of deferred) {
    if (!key.startsWith(prefix)) continue;
    deferred.delete(prefix);
    registerPrecompiled(load());
    return precompiled.get(key);
  }
  return undefined;
}

/** The options every protocol and config validator is compiled with (at build time too). */
export const validatorOptions: Options = { allErrors: true, strict: false, validateSchema: false };

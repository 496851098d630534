import * as path from "node:path";
import type { ValidateFunction } from "ajv";
import { registerPrecompiled } from "../../shared/protocol/ajv";

/** Set by esbuild in dist/. */
declare const __PI_BUNDLED__: boolean | undefined;

/**
 * Registers the validators compiled at build time (dist/validators.js, see precompiled-schemas.ts).
 * From source, or if the file is missing, validators are compiled on first use instead.
 */
export function loadPrecompiledValidators(): void {
  if (typeof __PI_BUNDLED__ === "undefined" || !__PI_BUNDLED__) return;
  try {
    const load = require as (id: string) => { validators: Record<string, ValidateFunction> };
    registerPrecompiled(load(path.join(__dirname, "validators.js")).validators);
  } catch {
    // compiled on first use
  }
}

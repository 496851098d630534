import * as path from "node:path";
import type { ValidateFunction } from "ajv";
import { registerDeferredPrecompiled, registerPrecompiled } from "../../shared/protocol/ajv";

/** Set by esbuild in dist/. */
declare const __PI_BUNDLED__: boolean | undefined;

/**
 * Registers the validators compiled at build time (see precompiled-schemas.ts): dist/validators.js
 * now, dist/tool-validators.js at the first tool call. From source, or if a file is missing,
 * validators are compiled on first use instead.
 */
export function loadPrecompiledValidators(): void {
  if (typeof __PI_BUNDLED__ === "undefined" || !__PI_BUNDLED__) return;
  registerPrecompiled(validatorsIn("validators.js"));
  registerDeferredPrecompiled("tool:", () => validatorsIn("tool-validators.js"));
}

/** The pool's (agent-host/pool/): its control frames only, dist/pool-validators.js. */
export function loadPoolValidators(): void {
  if (typeof __PI_BUNDLED__ === "undefined" || !__PI_BUNDLED__) return;
  registerPrecompiled(validatorsIn("pool-validators.js"));
}

/** The validators of a file beside the bundle; none when it is missing (compiled on first use). */
function validatorsIn(file: string): Record<string, ValidateFunction> {
  try {
    return (require as (id: string) => { validators: Record<string, ValidateFunction> })(path.join(__dirname, file)).validators;
  } catch {
    return {};
  }
}

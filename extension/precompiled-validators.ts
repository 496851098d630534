// The checks of what agents write, compiled at build time (dist/client-validators.js, beside
// this bundle): registered at activation, loaded with the first frame an agent sends. Without the
// file (a build that lacks it) each is compiled on the first frame of its type, as before.
import * as path from "node:path";
import type { ValidateFunction } from "ajv";
import { registerDeferredPrecompiled } from "../shared/protocol/ajv";

export function deferClientValidators(): void {
  registerDeferredPrecompiled("out:", () => {
    try {
      return (require as (id: string) => { validators: Record<string, ValidateFunction> })(path.join(__dirname, "client-validators.js")).validators;
    } catch {
      return {};
    }
  });
}

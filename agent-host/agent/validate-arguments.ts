import type { default as Ajv, ValidateFunction } from "ajv";
import { describeErrors } from "../../shared/protocol";
import { createAjv } from "../../shared/protocol/ajv";
import type { AnyAgentTool } from "./tool";

// coerceTypes: models send "5" for 5 and "true" for true; useDefaults fills documented defaults.
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

export type ArgumentCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** Validates (and coerces, on a copy) a tool call's arguments against the tool's schema. */
export function validateToolArguments(tool: AnyAgentTool, args: unknown): ArgumentCheck {
  let validate = compiled.get(tool.parameters);
  if (!validate) {
    validate = (ajv ??= createAjv({ allErrors: true, strict: false, coerceTypes: true, useDefaults: true })).compile(tool.parameters);
    compiled.set(tool.parameters, validate);
  }
  const copy = structuredClone(args ?? {}) as Record<string, unknown>;
  if (validate(copy)) return { ok: true, args: copy };
  return { ok: false, error: `Invalid arguments for ${tool.name}: ${describeErrors(validate.errors)}` };
}

import type { default as Ajv, Options, ValidateFunction } from "ajv";
import { describeErrors } from "../../shared/protocol";
import { createAjv, precompiledValidator } from "../../shared/protocol/ajv";
import type { AnyAgentTool } from "./tool";
import { errorText } from "../../shared/error-text";

/** coerceTypes: models send "5" for 5 and "true" for true; useDefaults fills documented defaults. */
export const toolValidatorOptions: Options = { allErrors: true, strict: false, coerceTypes: true, useDefaults: true };

/**
 * The key of a tool schema's validator compiled at build time (the built-in tools', see
 * rpc/precompiled-schemas.ts): the schema's JSON, so a tool that keeps a built-in name but changes
 * its parameters gets its own validator.
 */
export function toolValidatorKey(schema: unknown): string {
  return `tool:${JSON.stringify(schema)}`;
}

let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

export type ArgumentCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** Schemas that could not be compiled, with the reason: their calls fail, the run goes on. */
const uncompilable = new WeakMap<object, string>();

/**
 * Validates (and coerces, on a copy) a tool call's arguments against the tool's schema. A schema
 * that cannot be compiled (an MCP server's or an extension's: a remote `$ref`, an unknown type, a
 * broken pattern) fails the call with the reason; it is not thrown into the tool runner.
 */
export function validateToolArguments(tool: AnyAgentTool, args: unknown): ArgumentCheck {
  return checkToolArguments(tool.name, tool.parameters, args);
}

/** The same check by a tool's name and schema (e.g. a tool's arguments recorded in a session file). */
export function checkToolArguments(name: string, parameters: object, args: unknown): ArgumentCheck {
  const broken = uncompilable.get(parameters);
  if (broken !== undefined) return { ok: false, error: broken };
  let validate = compiled.get(parameters);
  if (!validate) {
    try {
      validate = precompiledValidator(toolValidatorKey(parameters)) ?? (ajv ??= createAjv(toolValidatorOptions)).compile(parameters);
    } catch (error) {
      const reason = `The parameter schema of ${name} cannot be used, so it cannot be called: ${errorText(error)}`;
      uncompilable.set(parameters, reason);
      return { ok: false, error: reason };
    }
    compiled.set(parameters, validate);
  }
  const copy = structuredClone(args ?? {}) as Record<string, unknown>;
  if (validate(copy)) return { ok: true, args: copy };
  return { ok: false, error: `Invalid arguments for ${name}: ${describeErrors(validate.errors)}` };
}

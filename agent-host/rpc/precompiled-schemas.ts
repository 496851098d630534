/**
 * The schemas the agent host checks from its first frames on (every inbound command and frame,
 * and models.json), compiled to code at build time with AJV's standalone mode (esbuild.mjs writes
 * dist/validators.js). The host then answers its first command without loading AJV.
 */
import type { TSchema } from "@sinclair/typebox";
import { commandSchemas } from "../../shared/protocol/commands";
import { inboundExtraSchemas } from "../../shared/protocol/frames";
import { modelsJsonSchemas } from "../ai/models/models-json-schema";

export { validatorOptions } from "../../shared/protocol/ajv";

/** Each schema by the key its user looks it up with (shared/protocol/validate.ts, models-json.ts). */
export function precompiledSchemas(): Record<string, TSchema> {
  const inbound = { ...commandSchemas, ...inboundExtraSchemas };
  return {
    ...Object.fromEntries(Object.entries(inbound).map(([type, schema]) => [`in:${type}`, schema as TSchema])),
    ...Object.fromEntries(Object.entries(modelsJsonSchemas).map(([key, make]) => [key, make()])),
  };
}

/**
 * The schemas the agent host checks from its first frames on (every inbound command and frame,
 * models.json and settings.json) and the built-in tools' arguments, compiled to code at build time with AJV's
 * standalone mode (esbuild.mjs writes dist/validators.js and dist/tool-validators.js). The host
 * then answers its first command and runs its first tool call without loading AJV (compiling its
 * meta-schema alone takes ~25 ms).
 */
import type { TSchema } from "@sinclair/typebox";
import { commandSchemas } from "../../shared/protocol/commands";
import { inboundExtraSchemas } from "../../shared/protocol/frames";
import { poolSchemasByKey } from "../../shared/protocol/pool";
import { outboundSchemas } from "../../shared/protocol/validate";
import { modelsJsonSchemas } from "../ai/models/models-json-schema";
import { settingsSchemas } from "../session/settings-schema";
import { mcpJsonSchemas } from "../mcp/config-schema";
import { toolValidatorKey } from "../agent/validate-arguments";
import { bashSchema } from "../tools/bash";
import { editSchema } from "../tools/edit";
import { findSchema } from "../tools/find";
import { grepSchema } from "../tools/grep";
import { lsSchema } from "../tools/ls";
import { readSchema } from "../tools/read";
import { todoSchema } from "../tools/todo";
import { writeSchema } from "../tools/write";

export { validatorOptions } from "../../shared/protocol/ajv";
/** The extension's checks of what an agent (and a pool of hosts) writes (dist/client-validators.js). */
export function precompiledClientSchemas(): Record<string, TSchema> {
  return { ...outboundSchemas(), ...poolSchemasByKey("out") };
}
export { toolValidatorOptions } from "../agent/validate-arguments";

/**
 * Each schema by the key its user looks it up with (shared/protocol/validate.ts, models-json.ts,
 * settings.ts, mcp/config.ts). A new foreign file adds its schema here and reads through
 * shared/foreign-json's parseForeignFile.
 */
export function precompiledSchemas(): Record<string, TSchema> {
  const inbound = { ...commandSchemas, ...inboundExtraSchemas };
  return {
    ...Object.fromEntries(Object.entries(inbound).map(([type, schema]) => [`in:${type}`, schema as TSchema])),
    ...Object.fromEntries(Object.entries(modelsJsonSchemas).map(([key, make]) => [key, make()])),
    ...Object.fromEntries(Object.entries(settingsSchemas).map(([key, make]) => [key, make()])),
    ...Object.fromEntries(Object.entries(mcpJsonSchemas).map(([key, make]) => [key, make()])),
  };
}

/** The control frames a pool of hosts reads (agent-host/pool/). */
export function precompiledPoolSchemas(): Record<string, TSchema> {
  return poolSchemasByKey("in");
}

/** The built-in tools' parameter schemas, by the key validate-arguments.ts looks them up with. */
export function precompiledToolSchemas(): Record<string, TSchema> {
  const schemas = [bashSchema, editSchema, findSchema, grepSchema, lsSchema, readSchema, todoSchema, writeSchema];
  return Object.fromEntries(schemas.map((schema) => [toolValidatorKey(schema), schema as TSchema]));
}

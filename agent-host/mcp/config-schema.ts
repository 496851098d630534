/**
 * The schema of Pi's mcp.json (`~/.pi/agent/mcp.json`, a trusted project's `.pi/mcp.json`, Pi 1.x
 * docs/mcp.md): the keys of an `mcpServers` entry with their types; an unknown key, or a value of
 * the wrong type, is dropped with a notice (shared/foreign-json). Compiled at build time
 * (rpc/precompiled-schemas.ts), read through parseForeignFile.
 */
import { Type, type TSchema } from "@sinclair/typebox";

const optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
const strings = () => Type.Record(Type.String(), Type.String());

export const EXPOSURES = ["codemode", "codemode-deferred", "deferred", "direct", "hidden"] as const;
const Exposure = Type.Union(EXPOSURES.map((e) => Type.Literal(e)));

export const McpServerEntry = Type.Object(
  {
    type: optional(Type.String()),
    command: optional(Type.String()),
    args: optional(Type.Array(Type.String())),
    env: optional(strings()),
    cwd: optional(Type.String()),
    url: optional(Type.String()),
    headers: optional(strings()),
    // OAuth sign-in is not done by this host (docs/mcp.md says so); the key is kept, not used.
    oauth: optional(Type.Unknown()),
    timeout: optional(Type.Number({ exclusiveMinimum: 0 })),
    enabled: optional(Type.Boolean()),
    exposure: optional(Exposure),
    toolExposure: optional(Type.Record(Type.String(), Exposure)),
    description: optional(Type.String()),
  },
  { additionalProperties: false },
);

export const McpJsonFile = Type.Object(
  {
    mcpServers: optional(Type.Record(Type.String(), McpServerEntry)),
    autoEnableCodemode: optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** By the key its precompiled validator has (rpc/precompiled-schemas.ts). */
export const mcpJsonSchemas = { "mcp.json": () => McpJsonFile };

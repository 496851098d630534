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

/** Pi's `oauth` key of an HTTP server (docs/mcp.md, "Authenticate with OAuth"). */
export const McpOAuthEntry = Type.Object(
  {
    clientId: optional(Type.String()),
    clientSecret: optional(Type.String()),
    callbackPort: optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    callbackUrl: optional(Type.String()),
    scope: optional(Type.String()),
    clientName: optional(Type.String()),
    clientRegistration: optional(Type.Union([Type.Literal("auto"), Type.Literal("dcr"), Type.Literal("cimd")])),
    authServerMetadataUrl: optional(Type.String()),
  },
  { additionalProperties: false },
);

export const McpServerEntry = Type.Object(
  {
    type: optional(Type.String()),
    command: optional(Type.String()),
    args: optional(Type.Array(Type.String())),
    env: optional(strings()),
    cwd: optional(Type.String()),
    url: optional(Type.String()),
    headers: optional(strings()),
    oauth: optional(McpOAuthEntry),
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

import { Type, type Static } from "@sinclair/typebox";

/** One MCP server of the bundled host, as `get_mcp_servers` reports it (ours; Pi shows the same in `/mcp`). */
export const McpServerStatus = Type.Object({
  name: Type.String(),
  /** Which mcp.json defines it: the user's (agent dir) or the project's. */
  source: Type.Union([Type.Literal("user"), Type.Literal("project")]),
  transport: Type.Union([Type.Literal("stdio"), Type.Literal("http")]),
  state: Type.Union([Type.Literal("disabled"), Type.Literal("connecting"), Type.Literal("connected"), Type.Literal("needs-auth"), Type.Literal("failed"), Type.Literal("closed")]),
  exposure: Type.Union([Type.Literal("direct"), Type.Literal("deferred"), Type.Literal("codemode"), Type.Literal("hidden")]),
  /** Tools the server offers that are not hidden. */
  tools: Type.Number(),
  /** Why it failed, with the tail of a stdio server's stderr ("requires sign-in" when it waits for one). */
  error: Type.Optional(Type.String()),
});
export type McpServerStatus = Static<typeof McpServerStatus>;

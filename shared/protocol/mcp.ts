import { Type } from "@sinclair/typebox";
import { lazySchema, type StaticOf } from "./lazy-schema";

/** One MCP server of the bundled host, as `get_mcp_servers` reports it (ours; Pi shows the same in `/mcp`). */
export const McpServerStatus = lazySchema(() => Type.Object({
  name: Type.String(),
  /** Which mcp.json defines it: the user's (agent dir), the project's, or VS Code's (offered by the editor). */
  source: Type.Union([Type.Literal("user"), Type.Literal("project"), Type.Literal("vscode")]),
  transport: Type.Union([Type.Literal("stdio"), Type.Literal("http")]),
  state: Type.Union([Type.Literal("disabled"), Type.Literal("connecting"), Type.Literal("connected"), Type.Literal("needs-auth"), Type.Literal("failed"), Type.Literal("closed")]),
  exposure: Type.Union([Type.Literal("direct"), Type.Literal("deferred"), Type.Literal("codemode"), Type.Literal("hidden")]),
  /** Tools the server offers that are not hidden. */
  tools: Type.Number(),
  /** Why it failed, with the tail of a stdio server's stderr ("requires sign-in" when it waits for one). */
  error: Type.Optional(Type.String()),
}));
export type McpServerStatus = StaticOf<typeof McpServerStatus>;

/**
 * The editor's offer of VS Code's MCP servers to the bundled host: a JSON object of Pi mcp.json
 * entries in this variable, named in PI_SECRET_ENV so that the host takes it out of its
 * environment at start-up (nothing it spawns inherits it). mcp.json's servers of the same name win.
 */
export const EDITOR_MCP_SERVERS_ENV = "PI_EDITOR_MCP_SERVERS";

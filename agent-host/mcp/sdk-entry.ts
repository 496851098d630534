/**
 * The parts of the official MCP SDK the host uses, bundled into dist/mcp-sdk.js apart from the
 * host (esbuild.mjs), so a host without MCP servers never reads it. Load it through sdk.ts.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
export { ListRootsRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

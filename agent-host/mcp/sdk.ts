/**
 * The MCP SDK, loaded when the first server connects: dist/mcp-sdk.js beside the host bundle, or
 * sdk-entry.ts from source. A computed path, so esbuild leaves it out of the host's bundle.
 */
import * as path from "node:path";
import type * as Sdk from "./sdk-entry";

/** Set by esbuild in dist/. */
declare const __PI_BUNDLED__: boolean | undefined;

export type McpSdk = typeof Sdk;
export type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

let sdk: McpSdk | undefined;

export function loadMcpSdk(): McpSdk {
  if (!sdk) {
    const file = typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__ ? path.join(__dirname, "mcp-sdk.js") : path.join(__dirname, "sdk-entry");
    sdk = (require as (id: string) => McpSdk)(file);
  }
  return sdk;
}

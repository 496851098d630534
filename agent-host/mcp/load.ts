/**
 * The MCP runtime (manager, connections, tool_search), loaded only when mcp.json names a server:
 * dist/mcp-manager.js beside the host bundle, or manager.ts from source. A computed path, so
 * esbuild leaves it out of the host's bundle and start-up without MCP does not read it.
 */
import * as path from "node:path";
import type * as Manager from "./manager";

/** Set by esbuild in dist/. */
declare const __PI_BUNDLED__: boolean | undefined;

export function loadMcpManager(): typeof Manager {
  const file = typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__ ? path.join(__dirname, "mcp-manager.js") : path.join(__dirname, "manager");
  return (require as (id: string) => typeof Manager)(file);
}

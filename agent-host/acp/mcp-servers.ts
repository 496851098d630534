/** ACP's mcpServers (session/new, session/load) as our MCP manager's servers: stdio and HTTP; SSE is not offered (mcpCapabilities). */
import type { McpServer } from "./sdk";
import { clientMcpServer, type McpServerConfig } from "../mcp/config";

export function clientMcpServers(servers: readonly McpServer[], cwd: string, env: NodeJS.ProcessEnv, warn: (message: string) => void): McpServerConfig[] {
  return servers.flatMap((server): McpServerConfig[] => {
    try {
      if ("type" in server && server.type === "sse") throw new Error("the SSE transport is not supported; pass the server's streamable HTTP endpoint");
      const pairs = (list: readonly { name: string; value: string }[] | undefined) => Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
      const entry = "url" in server ? { url: server.url, headers: pairs(server.headers) } : { command: server.command, args: [...server.args], env: pairs(server.env) };
      return [clientMcpServer(server.name, entry, cwd, env)];
    } catch (error) {
      warn(`ACP client's MCP server ${JSON.stringify(server.name)} skipped: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  });
}

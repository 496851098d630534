/**
 * ACP's mcpServers (session/new, session/load) as plain entries, which rpc/acp-launch.ts checks
 * and turns into our MCP manager's servers like mcp.json's (mcp/config.ts clientMcpServer):
 * stdio and HTTP; SSE is not offered (mcpCapabilities) and is refused here.
 */
import type { McpServer } from "./sdk";

export interface ClientMcpEntry {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

export function clientMcpEntries(servers: readonly McpServer[], warn: (message: string) => void): ClientMcpEntry[] {
  const pairs = (list: readonly { name: string; value: string }[] | undefined) => Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
  return servers.flatMap((server): ClientMcpEntry[] => {
    if ("type" in server && server.type === "sse") {
      warn(`ACP client's MCP server ${JSON.stringify(server.name)} skipped: the SSE transport is not supported; pass the server's streamable HTTP endpoint`);
      return [];
    }
    return ["url" in server ? { name: server.name, url: server.url, headers: pairs(server.headers) } : { name: server.name, command: server.command, args: [...server.args], env: pairs(server.env) }];
  });
}

/**
 * **Pi: MCP Servers**: the active session's MCP servers as the bundled host reports them
 * (`get_mcp_servers`), in a quick pick; a picked server that failed shows its whole error. Other
 * agents (pi, omp) do not answer the command: the user is told to use their own `/mcp`.
 */
import * as vscode from "vscode";
import type { SessionRegistry } from "../sessions/session-registry";
import { mcpServerItems } from "./mcp-items";

export function registerMcpServersCommand(sessions: SessionRegistry): vscode.Disposable {
  return vscode.commands.registerCommand("pi.mcpServers", async () => {
    const supervisor = sessions.active.supervisor;
    const client = await supervisor.ensureStarted().catch(() => undefined); // a failed start reports itself
    if (!client) return;
    const answer = await client.request("get_mcp_servers", {}).catch(() => undefined); // an agent without the command: said below
    if (!answer) {
      void vscode.window.showInformationMessage("Pi: this agent does not report its MCP servers here (the bundled agent host does; pi shows them with /mcp).");
      return;
    }
    if (answer.servers.length === 0) {
      void vscode.window.showInformationMessage("Pi: no MCP servers. They are configured in ~/.pi/agent/mcp.json and, for a trusted project, .pi/mcp.json.");
      return;
    }
    const picked = await vscode.window.showQuickPick(mcpServerItems(answer.servers), { title: "Pi: MCP Servers", placeHolder: "State · tools · exposure · transport · source", matchOnDescription: true });
    // The whole error in a modal message, as plain text (messages do not render markup).
    if (picked?.server.error) void vscode.window.showWarningMessage(`MCP server ${picked.server.name} failed`, { modal: true, detail: picked.server.error });
  });
}

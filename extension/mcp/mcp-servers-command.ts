/**
 * **Pi: MCP Servers**: the active session's MCP servers as the bundled host reports them
 * (`get_mcp_servers`), in a quick pick. A picked HTTP server can be signed in to (OAuth: the host
 * answers the authorization page, which opens in the browser only when the user picks "Open in
 * Browser" in a quick pick showing that very URL) or out of; a failed one shows its whole error. Other agents (pi, omp) do not answer
 * the command: the user is told to use their own `/mcp`.
 */
import * as vscode from "vscode";
import { checkAuthorizationUrl } from "../../shared/mcp-oauth-url";
import type { McpServerStatus } from "../../shared/protocol";
import type { RpcClient } from "../../shared/rpc";
import type { SessionRegistry } from "../sessions/session-registry";
import { notificationText, quickPickText } from "../ui/plain-text";
import { mcpServerActions, mcpServerItems, signInChoices } from "./mcp-items";
import { errorText } from "../../shared/error-text";

const failure = (error: unknown): string => notificationText(errorText(error));

/** Asks the host for the sign-in page, then the user whether to open exactly that page. */
async function signIn(client: RpcClient, server: McpServerStatus): Promise<void> {
  const answer = await client.request("mcp_login", { server: server.name }).catch((error: unknown) => void vscode.window.showErrorMessage(failure(error)));
  if (!answer) return;
  if (!answer.authorizationUrl) {
    void vscode.window.showInformationMessage(`Pi: signed in to MCP server ${notificationText(server.name)} with the stored credentials.`);
    return;
  }
  let url: URL;
  try {
    // Checked again here: the page comes from the server's metadata, and this is what the browser gets.
    url = checkAuthorizationUrl(answer.authorizationUrl);
  } catch (error) {
    void vscode.window.showErrorMessage(`Pi: the sign-in page of MCP server ${notificationText(server.name)} is refused: ${failure(error)}`);
    return;
  }
  // A quick pick, as project trust asks: the page's origin in the title (what the user must
  // recognise), the whole URL in the row, opened only on "Open in Browser"; Escape declines.
  const choice = await vscode.window.showQuickPick(signInChoices(url), {
    title: `Sign in to MCP server ${quickPickText(server.name)} at ${quickPickText(url.origin)}?`,
    placeHolder: `The page returns to this machine (${quickPickText(url.searchParams.get("redirect_uri") ?? "a loopback address")}); the agent keeps the sign-in in ~/.pi/agent/mcp-auth.json`,
    ignoreFocusOut: true,
    matchOnDetail: true,
  });
  if (choice?.action === "open") await vscode.env.openExternal(vscode.Uri.parse(url.href, true));
}

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
    if (!picked) return;
    const { server } = picked;
    const actions = mcpServerActions(server);
    const action = actions.length === 0 ? undefined : (await vscode.window.showQuickPick(actions, { title: `MCP server ${quickPickText(server.name)}` }))?.action;
    if (action === "sign-in") await signIn(client, server);
    else if (action === "sign-out") {
      const out = await client.request("mcp_logout", { server: server.name }).catch((error: unknown) => void vscode.window.showErrorMessage(failure(error)));
      if (out) void vscode.window.showInformationMessage(out.removed ? `Pi: signed out of MCP server ${notificationText(server.name)}.` : `Pi: MCP server ${notificationText(server.name)} had no stored sign-in.`);
    } else if (action === "show-error" || (actions.length === 0 && server.error)) {
      // The whole error in a modal message, as plain text (messages do not render markup).
      void vscode.window.showWarningMessage(`MCP server ${notificationText(server.name)} failed`, { modal: true, detail: server.error });
    }
  });
}

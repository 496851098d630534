/**
 * **Pi: Offer VS Code's MCP Servers to Pi…**: the servers of VS Code's own MCP configuration (the
 * user's mcp.json; a folder's .vscode/mcp.json only in a trusted workspace with a trusted
 * project) in a picker, each shown whole (its command line or URL as written); the picked ones
 * are recorded in the user setting `pi.mcp.vscodeServers` and reach the bundled host when it
 * starts (a change restarts running agents). Servers that cannot be offered (an `${input:…}`, an envFile, SSE, …) are listed with why,
 * and picking them does nothing.
 */
import * as vscode from "vscode";
import type { ProjectTrust } from "../supervision/project-trust";
import { settings } from "../settings";
import { notificationText, quickPickText } from "../ui/plain-text";
import { findVsCodeMcpServers, type FoundMcpServer } from "./vscode-mcp-offer";

const ORIGIN = { user: "VS Code user mcp.json", workspace: ".vscode/mcp.json" } as const;

export interface OfferItem extends vscode.QuickPickItem {
  server: FoundMcpServer;
}

export function offerItems(servers: readonly FoundMcpServer[], picked: readonly string[]): OfferItem[] {
  const chosen = new Set(picked);
  return servers.map((server) => ({
    label: `${server.entry ? "" : "$(circle-slash) "}${quickPickText(server.name)}`,
    description: server.entry ? ORIGIN[server.origin] : `${ORIGIN[server.origin]} · cannot be offered: ${quickPickText(server.skipped ?? "")}`,
    // The whole command line or URL, as it would run: one executable and its arguments, no shell.
    detail: quickPickText(server.shown),
    picked: server.entry !== undefined && chosen.has(server.key),
    server,
  }));
}

export function registerOfferVsCodeMcpCommand(options: { userDir: string; projectTrust: ProjectTrust }): vscode.Disposable {
  return vscode.commands.registerCommand("pi.offerVsCodeMcpServers", async () => {
    if (settings.agentCommand !== "") {
      void vscode.window.showInformationMessage("Pi: VS Code's MCP servers are offered to the bundled agent host only. pi reads ~/.pi/agent/mcp.json (its docs/mcp.md says how to move a VS Code entry there).");
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const projectTrusted = folder && vscode.workspace.isTrusted ? (await options.projectTrust.decide(folder, { ...process.env, ...settings.agentEnv })) === true : false;
    const found = findVsCodeMcpServers({ userDir: options.userDir, folder: folder ?? "", workspaceAllowed: Boolean(folder) && vscode.workspace.isTrusted && projectTrusted });
    if (found.servers.length === 0) {
      const where = folder && !(vscode.workspace.isTrusted && projectTrusted) ? " (this folder's .vscode/mcp.json is read only in a trusted workspace whose project you trusted)" : "";
      void vscode.window.showInformationMessage(`Pi: VS Code has no MCP servers to offer${where}.${found.problems.length ? ` ${notificationText(found.problems.join("; "))}` : ""}`);
      return;
    }
    const items = offerItems(found.servers, settings.vscodeMcpServers);
    const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: "Pi: Offer VS Code's MCP Servers to Pi", placeHolder: "The servers the bundled agent may start or reach (each shown as it would run)", matchOnDetail: true });
    if (!picked) return;
    const offered = picked.filter((item) => item.server.entry).map((item) => item.server.key);
    const ignored = picked.filter((item) => !item.server.entry).map((item) => item.server.name);
    // Keys of servers not shown here (another folder's) stay as they are.
    const shown = new Set(found.servers.map((s) => s.key));
    const kept = settings.vscodeMcpServers.filter((key) => !shown.has(key));
    await vscode.workspace.getConfiguration("pi").update("mcp.vscodeServers", [...kept, ...offered], vscode.ConfigurationTarget.Global);
    if (ignored.length) void vscode.window.showWarningMessage(`Pi: not offered (they cannot be): ${notificationText(ignored.join(", "))}`);
    // A change of the setting restarts running agents (restartWhenChanged), which then take the servers.
    void vscode.window.showInformationMessage(`Pi: ${offered.length} VS Code MCP server${offered.length === 1 ? "" : "s"} offered to the bundled agent.`);
  });
}

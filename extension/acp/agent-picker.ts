/**
 * **Pi: Choose Agent…** — the known ACP agents (how each starts, how to install it, what it gets
 * from the editor) and the bundled host, one pick away. The choice is written to the user's
 * settings (pi.agent.command, pi.agent.args, pi.agent.protocol), which restarts the agent.
 */
import { execFile } from "node:child_process";
import * as vscode from "vscode";
import { knownAcpAgents, type KnownAcpAgent } from "./known-agents";

export const chooseAgentCommand = "pi.chooseAgent";

/** Whether `command` is found on PATH (`command -v`; `where` on Windows). */
function onPath(command: string): Promise<boolean> {
  const [file, args] = process.platform === "win32" ? ["where", [command]] : ["sh", ["-c", 'command -v "$1"', "sh", command]];
  return new Promise((resolve) => execFile(file, args as string[], { timeout: 5000 }, (error) => resolve(!error)));
}

export function registerAgentPicker(): vscode.Disposable {
  return vscode.commands.registerCommand(chooseAgentCommand, async () => {
    type Item = vscode.QuickPickItem & { agent?: KnownAcpAgent };
    const items: Item[] = [
      { label: "Bundled agent host", description: "Pi RPC", detail: "Our Pi-compatible agent: every feature (host tools, permission modes, session tree)" },
      ...knownAcpAgents.map((agent) => ({ label: agent.label, description: `ACP · ${[agent.command, ...agent.args].join(" ")}`, detail: `${agent.detail}. Install: ${agent.install}`, agent })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title: "Pi: Choose Agent", placeHolder: "Which agent does the chat talk to?" });
    if (!picked) return;
    const config = vscode.workspace.getConfiguration("pi");
    const agent = picked.agent;
    if (agent && !(await onPath(agent.command))) {
      const copy = "Copy Install Command";
      const answer = await vscode.window.showWarningMessage(`${agent.label} is not installed (${agent.command} is not on PATH). Install it with: ${agent.install}`, copy, "Use It Anyway");
      if (answer === copy) await vscode.env.clipboard.writeText(agent.install);
      if (answer !== "Use It Anyway") return;
    }
    await config.update("agent.protocol", agent ? "acp" : undefined, vscode.ConfigurationTarget.Global);
    await config.update("agent.args", agent ? agent.args : undefined, vscode.ConfigurationTarget.Global);
    await config.update("agent.command", agent ? agent.command : undefined, vscode.ConfigurationTarget.Global);
  });
}

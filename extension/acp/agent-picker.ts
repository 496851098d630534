/**
 * **Pi: Choose Agent…** — the bundled host, the Pi family's own CLIs over Pi's RPC (pi, omp) and
 * the known ACP agents (how each starts, how to install it, what it gets from the editor), one pick
 * away. The choice is written to the user's settings (pi.agent.command, pi.agent.args,
 * pi.agent.protocol), which restarts the agent.
 */
import { execFile } from "node:child_process";
import * as vscode from "vscode";
import { knownAcpAgents, type KnownAcpAgent } from "./known-agents";

export const chooseAgentCommand = "pi.chooseAgent";

/** An agent the picker offers: how it starts (Pi's RPC gets `--mode rpc` from the launch) and how to install it. */
interface PickableAgent {
  label: string;
  command: string;
  args: string[];
  protocol: "pi-rpc" | "acp";
  install: string;
  detail: string;
}

/** The Pi family's own agents, as users have them on PATH (found in the #32 trial: the picker offered only ACP agents). */
const piFamily: readonly PickableAgent[] = [
  {
    label: "Pi",
    command: "pi",
    args: [],
    protocol: "pi-rpc",
    install: "npm install -g @earendil-works/pi-coding-agent",
    detail: "Pi's own agent, its models, settings and extensions; runs in the sandbox as a whole; has no permission modes, so it does not ask before edits or commands",
  },
  {
    label: "oh-my-pi",
    command: "omp",
    args: [],
    protocol: "pi-rpc",
    install: "npm install -g @oh-my-pi/pi-coding-agent",
    detail: "oh-my-pi's agent, its models, settings and tools; runs in the sandbox as a whole; has no permission modes, so it does not ask before edits or commands",
  },
];

/** Whether `command` is found on PATH (`command -v`; `where` on Windows). */
function onPath(command: string): Promise<boolean> {
  const [file, args] = process.platform === "win32" ? ["where", [command]] : ["sh", ["-c", 'command -v "$1"', "sh", command]];
  return new Promise((resolve) => execFile(file, args as string[], { timeout: 5000 }, (error) => resolve(!error)));
}

export function registerAgentPicker(): vscode.Disposable {
  return vscode.commands.registerCommand(chooseAgentCommand, async () => {
    type Item = vscode.QuickPickItem & { agent?: PickableAgent };
    const acp = knownAcpAgents.map((agent: KnownAcpAgent): PickableAgent => ({ ...agent, protocol: "acp" }));
    const item = (agent: PickableAgent): Item => ({
      label: agent.label,
      description: `${agent.protocol === "acp" ? "ACP" : "Pi RPC"} · ${[agent.command, ...agent.args].join(" ")}`,
      detail: `${agent.detail}. Install: ${agent.install}`,
      agent,
    });
    const items: Item[] = [
      { label: "Bundled agent host", description: "Pi RPC", detail: "Our Pi-compatible agent: every feature (host tools, permission modes, session tree)" },
      ...piFamily.map(item),
      ...acp.map(item),
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
    await config.update("agent.protocol", agent?.protocol === "acp" ? "acp" : undefined, vscode.ConfigurationTarget.Global);
    await config.update("agent.args", agent ? agent.args : undefined, vscode.ConfigurationTarget.Global);
    await config.update("agent.command", agent ? agent.command : undefined, vscode.ConfigurationTarget.Global);
  });
}

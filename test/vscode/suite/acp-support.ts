// Shared steps of the ACP agent suites: configure a real ACP agent from test/peers/acp-agents as
// the session's agent (user settings, as a user would), start it, open the chat; undo it all after.
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { activateExtension } from "./agent-fixture";
import { openChat } from "./chat-support";

const keys = ["agent.command", "agent.args", "agent.env", "agent.protocol", "sandbox.otherAgents"];
const config = () => vscode.workspace.getConfiguration("pi");

export interface AcpAgentSettings {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  /** Left to `auto` (detection) when absent. */
  protocol?: "acp";
}

/** Starts the agent; `dir` (in the workspace) is emptied first and removed after. */
export async function startAcpAgent(agent: AcpAgentSettings, dir: string, prepare: () => void = () => undefined): Promise<PiExtensionApi> {
  const api = await activateExtension();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  // Files written before any run: a file event within a run (or just after one) is taken as the agent's.
  prepare();
  await api.supervisor.stop();
  // The agent runs unwrapped here, as on a machine without bubblewrap: an ACP agent inside the
  // sandbox is not tested (docs/acp.md, Not yet).
  await config().update("sandbox.otherAgents", false, vscode.ConfigurationTarget.Global);
  await config().update("agent.command", agent.command, vscode.ConfigurationTarget.Global);
  await config().update("agent.args", agent.args, vscode.ConfigurationTarget.Global);
  await config().update("agent.env", agent.env, vscode.ConfigurationTarget.Global);
  if (agent.protocol) await config().update("agent.protocol", agent.protocol, vscode.ConfigurationTarget.Global);
  await api.supervisor.ensureStarted();
  await openChat();
  await vscode.commands.executeCommand("pi.review.keepAll");
  return api;
}

export async function stopAcpAgent(api: PiExtensionApi | undefined, dir: string | undefined): Promise<void> {
  await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  await api?.supervisor.stop();
  for (const key of keys) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  // Past the review's grace after a run (2 s), so that the removal is not left for the next suites to review.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  await vscode.commands.executeCommand("pi.review.keepAll");
}

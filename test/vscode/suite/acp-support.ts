// Shared steps of the ACP agent suites: configure a real ACP agent from test/peers/acp-agents as
// the session's agent (user settings, as a user would), start it, open the chat; undo it all after.
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { activateExtension, eventually } from "./agent-fixture";
import { openChat } from "./chat-support";
import { ui } from "./ui";

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
  const api = await configureAcpAgent(agent, dir, prepare);
  await api.supervisor.ensureStarted();
  await openChat();
  await vscode.commands.executeCommand("pi.review.keepAll");
  return api;
}

/** The agent's settings written (the agent stopped, `dir` emptied), not started: for a start the test drives (a sign-in). */
export async function configureAcpAgent(agent: AcpAgentSettings, dir: string, prepare: () => void = () => undefined): Promise<PiExtensionApi> {
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

const modified = ".monaco-diff-editor .editor.modified";
export const lines = (...each: string[]) => each.map((l) => `${l}\n`).join("");
/** The file the write tests rewrite: `a.txt` in the agent's folder, made before its first run. */
export const original = lines("alpha 1", "alpha 2", "alpha 3", "alpha 4", "alpha 5", "alpha 6", "alpha 7", "alpha 8");
/** What an agent writes over it: two hunks (lines 2 and 7). */
export const rewritten = lines("alpha 1", "ALPHA TWO", "alpha 3", "alpha 4", "alpha 5", "alpha 6", "ALPHA SEVEN", "alpha 8");

/**
 * After an agent wrote `rewritten` over `file`: it is in the Changes view with its before, and Undo
 * on its second hunk in the review diff puts line 7 back on disk.
 */
export async function undoSecondHunkInReview(api: PiExtensionApi, file: string, screenshot: string): Promise<void> {
  await eventually("the file to review", () => api.review.files().some((f) => f.path === file) || undefined, 20_000);
  await vscode.commands.executeCommand("pi.review.openDiff", api.review.files().find((f) => f.path === file));
  await ui.waitForSelector(`${modified} .codelens-decoration a:has-text("Undo") >> nth=1`);
  await ui.screenshot(screenshot);
  await ui.click(`${modified} .codelens-decoration a:has-text("Undo") >> nth=1`);
  const oneUndone = lines("alpha 1", "ALPHA TWO", "alpha 3", "alpha 4", "alpha 5", "alpha 6", "alpha 7", "alpha 8");
  await eventually("the second hunk undone on disk", () => fs.readFileSync(file, "utf8") === oneUndone || undefined);
}

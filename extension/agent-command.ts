import * as path from "node:path";
import { settings } from "./settings";

export interface AgentLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** For messages: "bundled agent host" or the configured command. */
  label: string;
}

/**
 * What to spawn: the configured Pi-compatible command, or our bundled host run by the editor's
 * own runtime (Electron as Node in desktop VS Code, plain Node on a server).
 */
export function resolveAgentLaunch(extensionPath: string, cwd: string): AgentLaunch {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings.agentEnv };
  const configured = settings.agentCommand;
  const userArgs = settings.agentArgs;
  if (configured) {
    const args = userArgs.includes("--mode") ? userArgs : ["--mode", "rpc", ...userArgs];
    return { command: configured, args, env, cwd, label: configured };
  }
  const host = path.join(extensionPath, "dist", "agent-host.js");
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = "1";
  return { command: process.execPath, args: [host, "--mode", "rpc", ...userArgs], env, cwd, label: "bundled agent host" };
}

/**
 * The ACP agents we know by name: how each starts, how to install it, and how a configured
 * command is recognised as one of them (`pi.agent.protocol` "auto"). Plain data: the picker
^ * (extension/acp/agent-picker.ts) and the launch (supervision/agent-command.ts) read it.
 */
import * as path from "node:path";

export type AgentProtocol = "pi-rpc" | "acp";
export type ProtocolSetting = "auto" | AgentProtocol;

export interface KnownAcpAgent {
  id: string;
  label: string;
  /** The command and arguments that start it as an ACP agent. */
  command: string;
  args: string[];
  /** How to install it (shown in the picker). */
  install: string;
  /** What it asks, and what of ours it uses (docs/acp.md has the whole table). */
  detail: string;
  /** Where it keeps its state, under HOME: writable in the sandbox (pi.sandbox.otherAgents). */
  stateDirs: string[];
  /** What it records of a sign-in in its own files, which Pi does not edit (Sign Out says it). */
  signInRecord?: string;
  /** The configured command (its base name) and arguments are this agent in ACP mode. */
  matches(base: string, args: readonly string[]): boolean;
}

export const knownAcpAgents: readonly KnownAcpAgent[] = [
  {
    id: "gemini",
    label: "Gemini CLI",
    command: "gemini",
    args: ["--acp"],
    install: "npm install -g @google/gemini-cli",
    detail: "asks before writes and commands; reads and writes through the editor (review, checkpoints)",
    stateDirs: [".gemini"],
    signInRecord: "Gemini CLI records the sign-in method chosen in ~/.gemini/settings.json (security.auth.selectedType) and does not ask again while it is set: change it there, or in gemini's own /auth, to be asked",
    matches: (base, args) => base === "gemini" && (args.includes("--acp") || args.includes("--experimental-acp")),
  },
  {
    id: "claude-code",
    label: "Claude Code (claude-agent-acp)",
    command: "claude-agent-acp",
    args: [],
    install: "npm install -g @agentclientprotocol/claude-agent-acp",
    detail: "starts in its auto mode; pick Default in its modes to be asked; writes on its own (file events, no checkpoint before)",
    stateDirs: [".claude"],
    matches: (base) => base === "claude-agent-acp" || base === "claude-code-acp",
  },
  {
    id: "codex",
    label: "Codex (codex-acp)",
    command: "codex-acp",
    args: [],
    install: "npm install -g @zed-industries/codex-acp",
    detail: "asks for escalated commands only; writes on its own",
    stateDirs: [".codex"],
    matches: (base) => base === "codex-acp",
  },
  {
    id: "opencode",
    label: "OpenCode",
    command: "opencode",
    args: ["acp"],
    install: "npm install -g opencode-ai",
    detail: "asks before edits and commands (its permission setting); writes through the editor (review, checkpoints)",
    stateDirs: [".config/opencode", ".local/share/opencode", ".cache/opencode", ".local/state/opencode"],
    matches: (base, args) => base === "opencode" && args[0] === "acp",
  },
];

/** The known agent a configured command is, if any. */
export function knownAgentOf(command: string, args: readonly string[]): KnownAcpAgent | undefined {
  const name = (file: string) => path.win32.basename(file).replace(/\.(cmd|exe|js|mjs)$/i, "");
  const base = name(command);
  // `node …/gemini.js --acp`: the script is the agent.
  if ((base === "node" || base === "bun") && args[0]) return knownAcpAgents.find((agent) => agent.matches(name(args[0]!), args.slice(1)));
  return knownAcpAgents.find((agent) => agent.matches(base, args));
}

/** The protocol to speak with a configured command: the setting, or for "auto" the known agents. */
export function protocolOf(setting: ProtocolSetting, command: string, args: readonly string[]): AgentProtocol {
  if (setting !== "auto") return setting;
  return command && knownAgentOf(command, args) ? "acp" : "pi-rpc";
}

import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { AgentInvocation } from "./acp-auth";
import type { AcpFileServices } from "./acp-files";
import type { SignInMemory, SignInUi } from "./acp-sign-in";

/** What an AcpBridge is given: the agent's folder and name, the editor's services for it, its sign-in. */
export interface AcpBridgeOptions {
  cwd: string;
  /** For titles and messages: "Gemini CLI" or the command. */
  agentName: string;
  files: AcpFileServices;
  /** The agent's terminals are shown in the editor too (pseudo-terminals); absent: only in the card. */
  terminalView?: { created(terminalId: string, command: string): void; output(terminalId: string, text: string): void; exited(terminalId: string, exitCode: number | null): void };
  /** The agent's modes changed (session/new, current_mode_update, set_mode). */
  onModes?: (modes: acp.SessionModeState | undefined) => void;
  /**
   * The agent runs in the OS sandbox (pi.sandbox.otherAgents): the editor must not do for it what
   * the sandbox forbids. No terminal/* (ours run in the editor's environment, outside: the agent
   * runs its commands itself, inside), and no write under a name the sandbox keeps read-only
   * (.git, .vscode, … at any depth).
   */
  sandboxed?: boolean;
  /** That sandbox is read-only (pi.sandbox.mode): the editor writes nothing for the agent. */
  readOnly?: boolean;
  /** Environment of the commands the agent runs through terminal/create. */
  terminalEnv?: NodeJS.ProcessEnv;
  log?: (message: string) => void;
  /** Sign-in when the agent says authentication is required (acp-sign-in.ts); absent: its error stands. */
  signIn?: SignInUi;
  /** How the agent was started: a terminal sign-in method of the spec's runs it again with its arguments. */
  invocation?: AgentInvocation;
  /** The user's `pi.agent.env`: a terminal sign-in runs with it (and the method's own variables). */
  signInEnv?: Readonly<Record<string, string>>;
  /** The gateway sign-in chosen for an agent, made again at its next start. */
  signInMemory?: SignInMemory;
}

/**
 * What an AgentSupervisor is given (its session, the editor's services it hands the agent) and
 * the hooks it runs on each new agent process.
 */
import type { SandboxRoots } from "../save-guard/save-guard";
import type * as vscode from "vscode";
import type { RpcClient } from "../../shared/rpc";
import type { HostTool } from "../../shared/rpc/host-tool-registry";
import type { SignInMemory } from "../acp/acp-sign-in";
import type { KeySource, LocalProvider } from "../gateway/agent-gateway";
import type { Lifetime } from "../lifetime";
import type { HostPools } from "./pool/host-pools";
import type { ProjectTrust } from "./project-trust";
import type { RestartPolicyOptions } from "./restart-policy";
import type { WorkspaceTrust } from "./trust";

/**
 * Hooks run on each new agent process, before it is used (dialog handlers, event forwarding).
 * `owner`: the editor session the agent works for (SupervisorOptions.owner; "" without one).
 */
export type AgentAttach = (client: RpcClient, lifetime: Lifetime, owner: string) => void;

export interface SupervisorOptions {
  extensionPath: string;
  /** The editor session this agent works for (AgentSession.id): what it changes is that session's to review. */
  owner?: string;
  log: vscode.LogOutputChannel;
  trust?: WorkspaceTrust;
  /** API keys (SecretStorage): served to the agent through a model gateway of its own, never given. */
  keys?: KeySource;
  /** The ACP agents signed in through the model gateway: signed in again at their next start. */
  acpSignIns?: SignInMemory;
  restartPolicy?: RestartPolicyOptions;
  /** Where the agent runs (a git worktree of its own); default the first workspace folder. */
  cwd?: string;
  /** A session file to open on the first start (the terminal handoff, a session from the list). */
  sessionFile?: string;
  /** The checkpoint store for the bundled host, read at each start (undefined while checkpoints are off). */
  checkpointStore?: () => string | undefined;
  /** Decides whether the folder's project code may load (asks the user once); none: it never loads. */
  projectTrust?: ProjectTrust;
  /**
   * The editor's host tools, for a configured agent through the editor bridge (#35): it loads
   * dist/pi-editor-bridge.mjs, used when the probe finds no set_host_tools.
   */
  editorTools?: () => readonly HostTool[];
  /** VS Code's user folder (its mcp.json): the user's VS Code MCP servers can be offered to the bundled host. */
  vscodeUserDir?: string;
  /** Providers the gateway serves itself (VS Code's models), read at each start. */
  localProviders?: () => Promise<LocalProvider[]>;
  /** The window's shared processes of the bundled host, used while `pi.agent.shareProcess` is on (pool/). */
  hostPools?: HostPools;
  /** Starts keeping the editor's saves inside what sandboxed commands may write (save-guard/), before the first sandboxed agent. */
  armSaveGuard?: (roots: SandboxRoots) => void;
}

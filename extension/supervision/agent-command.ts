import * as fs from "node:fs";
import * as path from "node:path";
import { CHECKPOINT_DIR_ENV } from "../../shared/checkpoints/schema";
import type { PermissionMode } from "../../shared/protocol";
import { EDITOR_MCP_SERVERS_ENV } from "../../shared/protocol/mcp";
import { GATEWAY_ENV } from "../gateway/gateway-plan";
import { hostSandboxArgs } from "../sandbox/host-sandbox-args";
import { settings } from "../settings";
import { configuredAgentArgs, hasModeOption } from "./launch-args";
import { hostMemoryLaunch } from "./host-memory";
import { knownAgentOf, protocolOf, type AgentProtocol } from "../acp/known-agents";

export interface AgentLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** For messages: "bundled agent host" or the configured command. */
  label: string;
  bundled: boolean;
  /** What the settings asked that the launch could not take (for the log). */
  warnings?: string[];
  /** The wire: Pi's JSONL RPC (default) or ACP (extension/acp/, the chat is the same). */
  protocol?: AgentProtocol;
}

export interface LaunchOptions {
  /**
   * Project trust (supervision/project-trust.ts): the bundled host gets --approve / --no-approve;
   * undefined when the folder has nothing to protect. A configured agent reads the same decision
   * from pi's trust.json itself.
   */
  projectTrusted?: boolean;
  /** The session's permission mode (bundled host): kept when the agent restarts. */
  permissionMode?: PermissionMode;
  /**
   * The model gateway's part of the environment (gateway/agent-gateway.ts): the per-session token
   * in each SecretStorage key's variable, and PI_MODEL_GATEWAY. Never a key.
   */
  gatewayEnv: Readonly<Record<string, string>>;
  /** A session file to reopen (after a crash or restart). */
  sessionFile?: string;
  /**
   * The checkpoint store: the bundled host records there before its own write/edit tools run;
   * other agents load the Pi extension dist/pi-checkpoints.mjs (`-e`), which does the same.
   */
  checkpointDir?: string;
  /**
   * The editor bridge's part of the environment (editor-bridge/agent-bridge.ts): the path of the
   * handoff file that dist/pi-editor-bridge.mjs (`-e`) reads and deletes at load. Never the token.
   */
  bridgeEnv?: Readonly<Record<string, string>>;
  /** VS Code's MCP servers the user offered (JSON of Pi entries): the bundled host only, named in PI_SECRET_ENV. */
  editorMcpServers?: string;
}

/**
 * What to spawn: the configured Pi-compatible command, or our bundled host run by the editor's
 * own runtime (Electron as Node in desktop VS Code, plain Node on a server). No key from
 * SecretStorage is in `env` or `args`: the agent reaches its providers through the model gateway
 * with a token; `env` (which holds the token) is never logged (see describeLaunch).
 */
export function resolveAgentLaunch(extensionPath: string, cwd: string, options: LaunchOptions): AgentLaunch {
  // PI_SECRET_ENV names the gateway's variables: the host keeps the token from the processes its tools start.
  const secretNames = Object.keys(options.gatewayEnv).join(",");
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings.agentEnv, ...options.gatewayEnv, ...(secretNames ? { PI_SECRET_ENV: secretNames } : {}) };
  const session = options.sessionFile ? ["--session", options.sessionFile] : [];
  const configured = settings.agentCommand;
  const userArgs = settings.agentArgs;
  if (configured && protocolOf(settings.agentProtocol, configured, userArgs) === "acp") {
    // An ACP agent: its own arguments only (no --mode, no Pi extensions), and none of the
    // gateway's variables: they would shadow the agent's own key variables with a token it cannot use.
    const known = knownAgentOf(configured, userArgs);
    const acpEnv: NodeJS.ProcessEnv = { ...process.env, ...settings.agentEnv };
    const label = `ACP: ${known?.label ?? (path.isAbsolute(configured) ? path.basename(configured) : configured)}`;
    return { command: configured, args: [...userArgs], env: acpEnv, cwd, label, bundled: false, protocol: "acp" };
  }
  if (configured) {
    const label = path.isAbsolute(configured) ? path.basename(configured) : configured;
    const recorderFile = path.join(extensionPath, "dist", "pi-checkpoints.mjs");
    // Pi refuses to start when an -e file cannot be loaded: only a file that is there.
    const recorder = options.checkpointDir && fs.existsSync(recorderFile) ? ["-e", recorderFile] : [];
    if (options.checkpointDir) env[CHECKPOINT_DIR_ENV] = options.checkpointDir;
    // The gateway's Pi extension points each gatewayed provider at the gateway (registerProvider).
    const gatewayFile = path.join(extensionPath, "dist", "pi-gateway.mjs");
    const gateway = options.gatewayEnv[GATEWAY_ENV] && fs.existsSync(gatewayFile) ? ["-e", gatewayFile] : [];
    // The editor bridge: the editor's host tools for an agent without set_host_tools (#35).
    const bridgeFile = path.join(extensionPath, "dist", "pi-editor-bridge.mjs");
    const bridge = options.bridgeEnv && fs.existsSync(bridgeFile) ? ["-e", bridgeFile] : [];
    if (bridge.length) Object.assign(env, options.bridgeEnv);
    return { command: configured, args: configuredAgentArgs(userArgs, [...recorder, ...gateway, ...bridge, ...session]), env, cwd, label, bundled: false };
  }
  // Less memory per session (host-memory.ts); its variables, like the editor's MCP servers, are
  // kept out of what the host's tools inherit (agent-host/rpc/secret-env.ts).
  const memory = hostMemoryLaunch(process.platform, env, Boolean(process.versions.electron));
  Object.assign(env, memory.env);
  if (options.editorMcpServers) env[EDITOR_MCP_SERVERS_ENV] = options.editorMcpServers;
  const hostOnly = [...Object.keys(memory.env), ...(options.editorMcpServers ? [EDITOR_MCP_SERVERS_ENV] : [])];
  if (hostOnly.length) env.PI_SECRET_ENV = [secretNames, ...hostOnly].filter(Boolean).join(",");
  const host = path.join(extensionPath, "dist", "agent-host.js");
  const sandbox = hostSandboxArgs({ mode: settings.sandboxMode, network: settings.sandboxNetwork, allowedHosts: settings.sandboxAllowedHosts });
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = "1";
  const defaults = [
    ...(settings.defaultProvider ? ["--provider", settings.defaultProvider] : []),
    ...(settings.defaultModel ? ["--model", settings.defaultModel] : []),
    ...(settings.thinkingLevel !== "default" ? ["--thinking", settings.thinkingLevel] : []),
    ...(options.projectTrusted === undefined ? [] : [options.projectTrusted ? "--approve" : "--no-approve"]),
    ...(settings.confirmTools.length > 0 ? ["--confirm-tools", settings.confirmTools.join(",")] : []),
    ...(settings.confirmTimeoutSeconds > 0 ? ["--confirm-timeout", String(settings.confirmTimeoutSeconds)] : []),
    ...(options.checkpointDir ? ["--checkpoint-dir", options.checkpointDir] : []),
    ...(settings.workspaceOnly ? ["--workspace-only"] : []),
    ...sandbox.args, // the OS sandbox of every process its tools start, and its network (extension/sandbox/ says what the header shows)
    "--todo-tool", // the agent keeps its plan where the Plan view shows it
    ...(options.permissionMode && options.permissionMode !== "ask" ? ["--permission-mode", options.permissionMode] : []),
  ];
  // The host is our script: its mode first; a mode of the user's own replaces it (never two).
  const args = [...memory.nodeArgs, host, ...(hasModeOption(userArgs) ? [] : ["--mode", "rpc"]), ...defaults, ...userArgs, ...session];
  const warnings = sandbox.ignored.map((entry) => `pi.sandbox.allowedHosts: ${JSON.stringify(entry)} is not a host pattern (host, *.domain, either with :port); left out`);
  return { command: process.execPath, args, env, cwd, label: "bundled agent host", bundled: true, ...(warnings.length ? { warnings } : {}) };
}

const secretOptions = new Set(["--api-key"]);

/** The command line for the log: option values that are secrets are masked; env is never shown. */
export function describeLaunch(launch: AgentLaunch): string {
  const shown = launch.args.map((arg, i) => {
    if (i > 0 && secretOptions.has(launch.args[i - 1])) return "***";
    const eq = arg.indexOf("=");
    return eq > 0 && secretOptions.has(arg.slice(0, eq)) ? `${arg.slice(0, eq)}=***` : arg;
  });
  return [launch.command, ...shown].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(" ");
}

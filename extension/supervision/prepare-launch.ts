/**
 * Everything a start needs before the agent's process is spawned: the project's trust, the model
 * gateway (keys served, never given), the editor bridge for a Pi agent, the user's VS Code MCP
 * servers for the bundled host, the resolved command and the sandbox around it. What it starts is
 * held by the returned lifetime, which the caller owns (freed when the process goes).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { protocolOf } from "../acp/known-agents";
import { AgentBridge } from "../editor-bridge/agent-bridge";
import { AgentGateway } from "../gateway/agent-gateway";
import { offeredServersJson } from "../mcp/vscode-mcp-offer";
import { sandboxAgentLaunch, type SandboxNote } from "../sandbox/agent-sandbox";
import { Lifetime } from "../lifetime";
import { settings } from "../settings";
import type { AgentNotices } from "../ui/agent-notices";
import { resolveAgentLaunch, type AgentLaunch, type LaunchOptions } from "./agent-command";
import type { SupervisorOptions } from "./supervisor-options";

export interface PreparedLaunch {
  launch: AgentLaunch;
  /** Whether the sandbox wraps the command (the ACP agent's sign-in needs to know). */
  sandboxed: boolean;
  sandboxNote: SandboxNote | undefined;
  gateway: AgentGateway | undefined;
  bridge: AgentBridge | undefined;
  /** Holds the gateway, the bridge and the sandbox: the caller adds the process after them. */
  lifetime: Lifetime;
}

export interface LaunchWish {
  /** An existing session file to open. */
  sessionFile: string | undefined;
  /** The session the user chose (a list, a terminal handoff): written where it is. */
  chosen: string | undefined;
  permissionMode: LaunchOptions["permissionMode"];
}

export async function prepareLaunch(options: SupervisorOptions, wish: LaunchWish, notices: AgentNotices): Promise<PreparedLaunch> {
  const { log } = options;
  const { sessionFile, chosen, permissionMode } = wish;
  const cwd = options.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const checkpointDir = options.checkpointStore?.();
  const projectTrusted = options.projectTrust ? await options.projectTrust.decide(cwd, { ...process.env, ...settings.agentEnv }) : false;
  const local = (await options.localProviders?.()) ?? [];
  const lifetime = new Lifetime();
  try {
    const gateway = options.keys ? lifetime.add(await AgentGateway.start(options.keys, { ...process.env, ...settings.agentEnv }, settings.editorProxy, local)) : undefined;
    if (gateway?.unroutable.length) notices.keysNotGivenOnce(gateway.unroutable);
    const editorTools = options.editorTools;
    // Not for an ACP agent: it reaches the editor through ACP's own fs/terminal requests, and an
    // unused handoff file would only hand it a token.
    const piAgent = settings.agentCommand !== "" && protocolOf(settings.agentProtocol, settings.agentCommand, settings.agentArgs) !== "acp";
    const bridge = piAgent && editorTools && editorTools().length > 0 ? lifetime.add(await AgentBridge.start(editorTools)) : undefined;
    // The VS Code MCP servers the user offered, for the bundled host only.
    const userDir = options.vscodeUserDir;
    const editorMcp = userDir && settings.agentCommand === "" ? offeredServersJson({ userDir, folder: cwd, workspaceAllowed: vscode.workspace.isTrusted && projectTrusted === true }, settings.vscodeMcpServers, log) : undefined;
    const resolved = resolveAgentLaunch(options.extensionPath, cwd, {
      ...(projectTrusted === undefined ? {} : { projectTrusted }),
      ...(permissionMode ? { permissionMode } : {}),
      gatewayEnv: gateway?.env ?? {},
      ...(sessionFile ? { sessionFile } : {}),
      ...(checkpointDir ? { checkpointDir } : {}),
      ...(bridge ? { bridgeEnv: bridge.env } : {}),
      ...(editorMcp ? { editorMcpServers: editorMcp } : {}),
    });
    for (const warning of resolved.warnings ?? []) log.warn(warning);
    const writable = [...(bridge ? [bridge.folder] : []), ...(sessionFile && sessionFile === chosen && sessionFile.endsWith(".jsonl") ? [path.dirname(sessionFile)] : [])];
    // Before the first sandboxed process exists: a link it makes after this is one to look for at a save.
    if (settings.sandboxMode === "workspace-write") options.armSaveGuard?.({ workspaces: [cwd] });
    const sandboxed = lifetime.add(await sandboxAgentLaunch(resolved, checkpointDir, writable));
    if (settings.sandboxMode === "workspace-write" && sandboxed.writableRoots) options.armSaveGuard?.({ agentRoots: sandboxed.writableRoots });
    if (sandboxed.note) log.warn(`${sandboxed.note.label}: ${sandboxed.note.detail}`);
    return { launch: sandboxed.launch, sandboxed: sandboxed.launch !== resolved, sandboxNote: sandboxed.note, gateway, bridge, lifetime };
  } catch (error) {
    lifetime.dispose();
    throw error;
  }
}

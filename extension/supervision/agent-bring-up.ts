/**
 * A started agent made ready for use: it answers get_state (an ACP agent once the user signed in),
 * its capabilities are probed, the editor's tools are routed (the host-tool protocol or the editor
 * bridge), the start settings are applied and what a restart kept is restored. Throws when the
 * agent does not get there; the supervisor then reports a failed start.
 */
import type * as vscode from "vscode";
import { errorText } from "../../shared/error-text";
import type { RpcClient } from "../../shared/rpc";
import { AcpTransport } from "../acp/acp-transport";
import type { AgentBridge } from "../editor-bridge/agent-bridge";
import type { AgentLaunch } from "./agent-command";
import type { AgentState, Recovery } from "./agent-state";
import type { AgentTransport } from "./agent-transport";
import { applyStartSettings, restoreRecovered } from "./apply-settings";
import type { EditorToolsVia } from "./capability-notes";

export interface BringUp {
  client: RpcClient;
  transport: AgentTransport;
  launch: AgentLaunch;
  bridge: AgentBridge | undefined;
  recovery: Recovery | undefined;
  agent: AgentState;
  log: vscode.LogOutputChannel;
}

export async function bringUp({ client, transport, launch, bridge, recovery, agent, log }: BringUp): Promise<void> {
  // An ACP agent may ask the user to sign in first: that time is not the agent's to be late by.
  if (transport instanceof AcpTransport) await transport.bridge.whenStarted(30_000);
  await client.request("get_state", {}, { timeoutMs: 30_000 });
  bridge?.agentStarted();
  const caps = await client.probe().catch((error: unknown) => {
    log.warn(`Probing the agent's capabilities failed: ${errorText(error)}`);
    return client.capabilities;
  });
  // The host-tool protocol where the agent has it; else the bridge, when it loaded.
  bridge?.setMode(caps.hostTools ? "protocol" : "bridge");
  log.info(`Agent ready (pid ${transport.pid}), capabilities: ${JSON.stringify(caps)}`);
  await applyStartSettings(client, caps, !launch.bundled, log);
  if (recovery) await restoreRecovered(client, recovery, log);
  await agent.refresh(client);
}

/** How the editor's tools reach a ready agent: its host-tool protocol, the editor bridge (a Pi extension), or not at all. */
export function editorToolsRoute(client: RpcClient, bridge: AgentBridge | undefined): EditorToolsVia | undefined {
  return client.capabilities.hostTools ? "protocol" : bridge?.bridgeLoaded ? "bridge" : undefined;
}

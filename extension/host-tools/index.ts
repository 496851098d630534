/**
 * The editor's host tools (seed 001): VS Code's buffers, diagnostics and language features,
 * served to the agent over its RPC connection (host_tool_call -> host_tool_result).
 */
import * as vscode from "vscode";
import type { AgentAttach } from "../supervision/supervisor-options";
import { Lifetime } from "../lifetime";
import { settings } from "../settings";
import { createDiagnosticsTool } from "./diagnostics";
import { createEditTool } from "./edit";
import { EditReviewer } from "./edit-review";
import { createActiveEditorTool, createOpenEditorsTool } from "./editors";
import { createDefinitionTool, createHoverTool, createReferencesTool } from "./navigation";
import { createReadTool } from "./read";
import { createSymbolsTool } from "./symbols";
import type { EditorTool } from "./tool";
import type { HostTool } from "../../shared/rpc/host-tool-registry";

/** Every editor tool, in the order the model sees them. */
export function createEditorTools(reviewer: EditReviewer, reviewEdits: () => boolean = () => settings.reviewEdits): EditorTool[] {
  return [
    createReadTool(),
    createEditTool({ reviewer, reviewEdits, sandboxMode: () => settings.sandboxMode }),
    createDiagnosticsTool(),
    createActiveEditorTool(),
    createOpenEditorsTool(),
    createSymbolsTool(),
    createDefinitionTool(),
    createReferencesTool(),
    createHoverTool(),
  ];
}

/**
 * Serves the editor tools to every agent the supervisor starts: registers them on its client
 * for the agent process's lifetime. The supervisor's probe() then sends them (set_host_tools)
 * and records in `client.capabilities.hostTools` whether the agent took them; agents without
 * the host-tool protocol get them through the editor bridge (editor-bridge/). Returns the extension-lifetime resources (the diff
 * review's document provider and commands).
 */
export function installEditorHostTools(supervisor: { onAttach(hook: AgentAttach): void; offerThroughBridge?(tools: readonly HostTool[]): void }): vscode.Disposable {
  const lifetime = new Lifetime();
  const reviewer = lifetime.add(new EditReviewer());
  const tools = createEditorTools(reviewer);
  // The same tools, the same definitions, for agents that get them through the editor bridge (#35).
  supervisor.offerThroughBridge?.(tools);
  supervisor.onAttach((client, agentLifetime) => {
    for (const tool of tools) agentLifetime.add(client.registerHostTool(tool.definition, tool.execute));
  });
  return lifetime;
}

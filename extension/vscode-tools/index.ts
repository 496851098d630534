/**
 * Tools other extensions register in VS Code (`vscode.lm.tools`, MCP servers configured in VS Code
 * among them) offered to the agent as host tools, by the user's choice: `pi.vscodeTools` names
 * them (none by default), **Pi: Choose VS Code Tools for the Agent** picks them. Each call is
 * `vscode.lm.invokeTool` with the call's cancellation; VS Code shows the tool's own confirmation.
 * Detected at run time: VS Code before 1.95 has no `vscode.lm.tools`, and the picker says so.
 */
import * as vscode from "vscode";
import type { AgentAttach } from "../supervision/supervisor-options";
import { settings } from "../settings";
import { errorResult, type EditorTool } from "../host-tools/tool";
import { offeredTools, toolOutcome } from "./tool-result";
import { errorText } from "../../shared/error-text";

interface ToolsRuntime {
  lm?: { tools?: readonly vscode.LanguageModelToolInformation[]; invokeTool?: typeof vscode.lm.invokeTool };
}
const runtime = vscode as unknown as ToolsRuntime;

export function hasLanguageModelTools(): boolean {
  return Array.isArray(runtime.lm?.tools) && typeof runtime.lm?.invokeTool === "function";
}

/** One host tool per chosen VS Code tool that is registered now; `refused` says why one is left out. */
export function chosenVscodeTools(chosen: readonly string[] = settings.vscodeTools, refused: (name: string, reason: string) => void = () => undefined): EditorTool[] {
  if (!hasLanguageModelTools() || chosen.length === 0) return [];
  const registered = new Map(runtime.lm!.tools!.map((tool) => [tool.name, tool]));
  const names = offeredTools(chosen.filter((name) => registered.has(name)));
  for (const r of names.refused) refused(r.name, r.reason);
  return names.offered.map((o) => hostToolFor(registered.get(o.name)!, o.modelName));
}

function hostToolFor(tool: vscode.LanguageModelToolInformation, modelName: string): EditorTool {
  const parameters = (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: "object", properties: {} };
  return {
    definition: { name: modelName, label: tool.name, description: tool.description || `VS Code tool ${tool.name}`, parameters },
    async execute(args, context) {
      const source = new vscode.CancellationTokenSource();
      const sub = context.token.onCancellationRequested(() => source.cancel());
      try {
        // No toolInvocationToken: the call is not from VS Code's chat, so VS Code asks (its own
        // confirmation) where the tool wants it.
        const result = await vscode.lm.invokeTool(tool.name, { input: args, toolInvocationToken: undefined }, source.token);
        return toolOutcome(result.content);
      } catch (error) {
        if (source.token.isCancellationRequested) return errorResult(`${tool.name} was cancelled.`);
        return errorResult(`${tool.name} failed: ${errorText(error)}`);
      } finally {
        sub.dispose();
        source.dispose();
      }
    },
  };
}

/** Offers the chosen tools to every agent the supervisor starts (read at each start). */
export function installVscodeTools(supervisor: { onAttach(hook: AgentAttach): void }, log: vscode.LogOutputChannel): void {
  supervisor.onAttach((client, agentLifetime) => {
    const tools = chosenVscodeTools(settings.vscodeTools, (name, reason) => log.warn(`VS Code tool ${name} is not offered to the agent: ${reason}`));
    for (const tool of tools) agentLifetime.add(client.registerHostTool(tool.definition, tool.execute));
  });
}

/** The picker: every registered tool, the chosen ones checked; the choice goes to user settings (the agent restarts). */
export async function chooseVscodeTools(): Promise<void> {
  if (!hasLanguageModelTools()) {
    void vscode.window.showWarningMessage(`This VS Code (${vscode.version}) offers no language model tools to extensions (vscode.lm.tools, VS Code 1.95 or later).`);
    return;
  }
  const chosen = new Set(settings.vscodeTools);
  const items = runtime.lm!.tools!.map((tool) => ({ label: tool.name, description: tool.tags.join(", "), detail: tool.description, picked: chosen.has(tool.name) }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage("No extension has registered a tool in VS Code yet.");
    return;
  }
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: "VS Code tools the agent may call", placeHolder: "Each call goes through VS Code, with the tool's own confirmation" });
  if (!picked) return;
  await vscode.workspace.getConfiguration("pi").update("vscodeTools", picked.map((item) => item.label), vscode.ConfigurationTarget.Global);
}

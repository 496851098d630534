import * as vscode from "vscode";
import type { ThinkingLevel } from "../../shared/protocol";
import { notificationText, quickPickText } from "../ui/plain-text";
import { commandTitle, run, type CommandContext } from "./context";

const allLevels: ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

export function registerModelCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand("pi.switchModel", () =>
      run(ctx, "Switching the model", async (client) => {
        const [{ models }, state] = await Promise.all([client.request("get_available_models", {}), client.request("get_state", {})]);
        const acpAgent = ctx.supervisor.acp?.name;
        if (models.length === 0 && acpAgent !== undefined) {
          // Not a missing key: an ACP agent that offers no model option chooses its model itself.
          return void vscode.window.showInformationMessage(`Pi: ${notificationText(acpAgent)} offers no model choice over ACP: it chooses its model itself.`);
        }
        if (models.length === 0) {
          const choice = await vscode.window.showWarningMessage("Pi: no model has credentials. Set an API key first.", "Set API Key");
          if (choice) await vscode.commands.executeCommand("pi.setApiKey");
          return;
        }
        const current = state.model;
        const items = models.map((m) => ({
          label: quickPickText(m.name || m.id),
          description: `${quickPickText(`${m.provider}/${m.id}`)}${current && current.provider === m.provider && current.id === m.id ? " (current)" : ""}`,
          model: m,
        }));
        const picked = await vscode.window.showQuickPick(items, { title: commandTitle(ctx, "Pi: Switch Model"), placeHolder: "Model for the next turns", matchOnDescription: true });
        if (!picked) return;
        await client.request("set_model", { provider: picked.model.provider, modelId: picked.model.id });
        ctx.supervisor.agent.refreshSoon();
      }),
    ),
    vscode.commands.registerCommand("pi.setThinkingLevel", () =>
      run(ctx, "Setting the thinking level", async (client) => {
        const state = await client.request("get_state", {});
        const levels = ctx.supervisor.capabilities?.sessionTree === false ? allLevels : (await client.request("get_available_thinking_levels", {})).levels;
        const items = levels.map((level) => ({ label: level, description: level === state.thinkingLevel ? "(current)" : undefined }));
        const picked = await vscode.window.showQuickPick(items, { title: commandTitle(ctx, "Pi: Set Thinking Level"), placeHolder: `Model: ${quickPickText(state.model?.name ?? "none")}` });
        if (!picked) return;
        await client.request("set_thinking_level", { level: picked.label });
        ctx.supervisor.agent.refreshSoon();
      }),
    ),
  ];
}

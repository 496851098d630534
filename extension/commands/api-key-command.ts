import { errorText } from "../../shared/error-text";
import * as vscode from "vscode";
import { apiKeyProviders, isVariableName } from "../api-keys";
import { type CommandContext } from "./context";
import { notificationText } from "../ui/plain-text";

const other = "Other provider…";

/** Which environment variable: a known provider, or one the user names. */
async function pickVariable(ctx: CommandContext): Promise<{ variable: string; label: string } | undefined> {
  const stored = new Set(ctx.apiKeys.variables);
  const known = apiKeyProviders.map((p) => ({ label: p.label, description: `${p.variable}${stored.has(p.variable) ? " (stored)" : ""}`, variable: p.variable }));
  const custom = [...stored].filter((v) => !apiKeyProviders.some((p) => p.variable === v)).map((v) => ({ label: v, description: "(stored)", variable: v }));
  const picked = await vscode.window.showQuickPick([...known, ...custom, { label: other, description: "name its environment variable", variable: "" }], {
    title: "Pi: Set API Key",
    placeHolder: "Provider (the key is kept in VS Code's secret storage and given to the agent in its environment)",
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.variable) return { variable: picked.variable, label: picked.label };
  const variable = await vscode.window.showInputBox({
    title: "Pi: Set API Key",
    prompt: "Environment variable the agent reads the key from, e.g. MY_PROVIDER_API_KEY",
    validateInput: (value) => (isVariableName(value.trim()) ? undefined : "Letters, digits and _ only, not starting with a digit"),
    ignoreFocusOut: true,
  });
  return variable ? { variable: variable.trim(), label: variable.trim() } : undefined;
}

export function registerApiKeyCommand(ctx: CommandContext): vscode.Disposable {
  return vscode.commands.registerCommand("pi.setApiKey", async () => {
    const target = await pickVariable(ctx);
    if (!target) return;
    const has = ctx.apiKeys.variables.includes(target.variable);
    const key = await vscode.window.showInputBox({
      title: `Pi: API Key for ${target.label}`,
      prompt: has ? `A key is stored for ${target.variable}: enter a new one, or leave empty to remove it` : `Stored as ${target.variable} for the agent`,
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    try {
      if (key.trim()) await ctx.apiKeys.set(target.variable, key.trim());
      else if (has) await ctx.apiKeys.delete(target.variable);
      else return;
    } catch (error) {
      return void vscode.window.showErrorMessage(`Pi: could not store the key: ${notificationText(errorText(error))}`);
    }
    ctx.log.info(`API key for ${target.variable} ${key.trim() ? "stored" : "removed"}; restarting the agent`);
    if (ctx.supervisor.client || ctx.supervisor.status === "crashed") {
      await ctx.supervisor.restart().catch((error: unknown) => void vscode.window.showErrorMessage(notificationText(errorText(error))));
    }
    void vscode.window.showInformationMessage(`Pi: API key for ${notificationText(target.label)} ${key.trim() ? "saved" : "removed"}.`);
  });
}

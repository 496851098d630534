import * as vscode from "vscode";
import { CHAT_VIEW_ID } from "../chat/chat-view";
import { registerAddToChat } from "./add-to-chat";
import { registerApiKeyCommand } from "./api-key-command";
import { registerAcpSignOutCommand } from "./acp-sign-out-command";
import { AskPiCodeActions } from "./code-actions";
import { startFailed, type CommandContext } from "./context";
import { registerModelCommands } from "./model-commands";
import { registerPromptCommands } from "./prompt-commands";
import { registerSessionCommands } from "./session-commands";

export type { ChatAccess, CommandContext } from "./context";
export { sessionCommandActions } from "./session-commands";

/** Every `pi.*` command of the palette, menus and keybindings, and the "Ask Pi to fix" code action. */
export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand("pi.focusChat", () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`)),
    vscode.commands.registerCommand("pi.restartAgent", async () => {
      try {
        await ctx.supervisor.restart();
      } catch (error) {
        startFailed(ctx, error);
      }
    }),
    vscode.commands.registerCommand("pi.showLog", () => ctx.log.show()),
    vscode.commands.registerCommand("pi.openAgentSettings", openAgentSettings),
    ...registerPromptCommands(ctx),
    ...registerModelCommands(ctx),
    ...registerSessionCommands(ctx),
    registerApiKeyCommand(ctx),
    registerAcpSignOutCommand(ctx),
    registerAddToChat(ctx),
    vscode.languages.registerCodeActionsProvider({ scheme: "file" }, new AskPiCodeActions(ctx.supervisor), {
      providedCodeActionKinds: AskPiCodeActions.kinds,
    }),
  ];
}

/**
 * The agent's settings (pi.agent.*) in the Settings editor. They are machine settings: in a
 * remote window (code-server, SSH, a container) they are the remote's, which the User tab does
 * not show, so the Remote tab when there is one.
 */
async function openAgentSettings(): Promise<void> {
  try {
    // An object: this command reads no query from a bare string (workbench.action.openSettings does).
    await vscode.commands.executeCommand("workbench.action.openRemoteSettings", { query: "pi.agent" });
  } catch {
    await vscode.commands.executeCommand("workbench.action.openSettings", "pi.agent"); // a local window: no such command
  }
}

import * as vscode from "vscode";
import type { ChatController } from "./chat-controller";

/** Commands that act on the chat of the session the user worked with last. */
export function registerChatCommands(activeChat: () => ChatController): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand("pi.collapseToolCards", () => activeChat().post({ type: "toolCards", open: false })),
    vscode.commands.registerCommand("pi.expandToolCards", () => activeChat().post({ type: "toolCards", open: true })),
  );
}

/**
 * The side bar chat's title buttons and its "…" menu. VS Code gives a view's title actions no
 * argument, and the palette's commands act on the chat worked with last, an editor tab's say: a
 * button in the side bar's own title bar then reset or changed another chat (#32 trial). Each
 * is an alias, `pi.sidebar.<name>` for `pi.<name>`, that makes the side bar's chat the one the user
 * works with first (its status bar, its commands), then runs the command. Contributed hidden from
 * the palette (package.json); test/rules/sidebar-commands checks the two lists agree.
 */
import * as vscode from "vscode";

export const sidebarCommands = [
  "pi.newSession",
  "pi.resumeSession",
  "pi.abort",
  "pi.switchModel",
  "pi.setThinkingLevel",
  "pi.compact",
  "pi.forkFromMessage",
  "pi.rewind",
  "pi.exportHtml",
  "pi.setApiKey",
  "pi.restartAgent",
  "pi.showLog",
  "pi.openInTerminal",
] as const;

export function sidebarAlias(command: string): string {
  return command.replace(/^pi\./, "pi.sidebar.");
}

export function registerSidebarCommands(focusSidebar: () => void): vscode.Disposable[] {
  return sidebarCommands.map((command) =>
    vscode.commands.registerCommand(sidebarAlias(command), (...args: unknown[]) => {
      focusSidebar();
      return vscode.commands.executeCommand(command, ...args);
    }),
  );
}

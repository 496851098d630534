import * as vscode from "vscode";
import type { CommandContext } from "./context";

/**
 * "Add to Pi Chat" from the explorer (the selected files and folders), an editor or its tab (the
 * selection's lines, or the whole file), and the Source Control view (the changed files): they
 * become chips of the message being written.
 */
export function registerAddToChat(ctx: CommandContext): vscode.Disposable {
  return vscode.commands.registerCommand("pi.addToChat", async (...args: unknown[]) => {
    const target = addToChatTarget(args);
    if (!target) {
      void vscode.window.showInformationMessage("Pi: select files, folders or text to add to the chat.");
      return;
    }
    await ctx.attachToChat(target.uris, target.lines);
  });
}

export function addToChatTarget(args: readonly unknown[]): { uris: vscode.Uri[]; lines?: { start: number; end: number } } | undefined {
  // Explorer: (clicked, allSelected). Source Control: (...resourceStates). Editor: (uri, context?).
  const many = Array.isArray(args[1]) ? (args[1] as unknown[]) : args;
  const uris = many.flatMap((arg) => {
    if (arg instanceof vscode.Uri) return [arg];
    const state = arg as { resourceUri?: unknown } | undefined;
    return state?.resourceUri instanceof vscode.Uri ? [state.resourceUri] : [];
  });
  const editor = vscode.window.activeTextEditor;
  const fromTab = typeof (args[1] as { groupId?: unknown } | undefined)?.groupId === "number";
  if (uris.length === 0 && editor && !editor.document.isUntitled) uris.push(editor.document.uri);
  if (uris.length === 0) return undefined;
  const selection = editor?.selection;
  if (!fromTab && uris.length === 1 && editor && selection && !selection.isEmpty && editor.document.uri.toString() === uris[0].toString()) {
    // A selection ending at the start of a line does not take that line.
    const end = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
    return { uris, lines: { start: selection.start.line + 1, end } };
  }
  return { uris };
}

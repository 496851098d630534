import { errorText } from "../../shared/error-text";
import * as vscode from "vscode";
import { commandTitle, run, sendMessage, type CommandContext } from "./context";
import { notificationText } from "../ui/plain-text";
import { documentTextForAgent, notHandedOver } from "../host-tools/readable-for-agent";

/** A fenced block with the file path and lines, e.g. for Send Selection and the code action. */
export function fencedSnippet(document: vscode.TextDocument, range: vscode.Range): string {
  const text = document.getText(range);
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const file = document.isUntitled ? document.uri.toString() : vscode.workspace.asRelativePath(document.uri, false);
  const first = range.start.line + 1;
  const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  const lines = first === last ? `line ${first}` : `lines ${first}-${last}`;
  return `${file} (${lines}):\n${fence}${document.languageId}\n${text.replace(/\n$/, "")}\n${fence}`;
}

async function askText(title: string, prompt: string): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({ title, prompt, ignoreFocusOut: true });
  return text?.trim() ? text : undefined;
}

export function registerPromptCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand("pi.sendPrompt", async (text?: string) => {
      const message = text ?? (await askText("Ask Pi", "Message for the agent"));
      if (message) await sendMessage(ctx, message);
    }),
    vscode.commands.registerCommand("pi.sendSelection", async (instruction?: string) => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return void vscode.window.showInformationMessage("Pi: open a file and select the code to send.");
      if (!(await mayHandOver(editor.document))) return;
      const ranges = editor.selections.filter((s) => !s.isEmpty);
      const blocks = (ranges.length ? ranges : [editor.document.lineAt(editor.selection.active.line).range]).map((r) => fencedSnippet(editor.document, r));
      const ask = instruction ?? (await vscode.window.showInputBox({ title: "Send Selection to Pi", prompt: "What should Pi do with it? (optional)", ignoreFocusOut: true }));
      if (ask === undefined) return;
      await sendMessage(ctx, [ask.trim(), ...blocks].filter(Boolean).join("\n\n"));
    }),
    vscode.commands.registerCommand("pi.steer", async (text?: string) => {
      const message = text ?? (await askText("Steer Pi", "Delivered after the current tool calls (a new prompt when idle)"));
      if (message) await sendMessage(ctx, message, "steer");
    }),
    vscode.commands.registerCommand("pi.followUp", async (text?: string) => {
      const message = text ?? (await askText("Follow Up", "Delivered when the agent would stop (a new prompt when idle)"));
      if (message) await sendMessage(ctx, message, "followUp");
    }),
    vscode.commands.registerCommand("pi.abort", async () => {
      const client = ctx.supervisor.client;
      if (!client) return;
      try {
        await client.request("abort", {});
      } catch (error) {
        void vscode.window.showErrorMessage(`Pi: abort failed: ${notificationText(errorText(error))}`);
      }
    }),
    vscode.commands.registerCommand("pi.askToFix", async (uri: vscode.Uri, diagnostic: vscode.Diagnostic) => {
      const document = await vscode.workspace.openTextDocument(uri);
      if (!(await mayHandOver(document))) return;
      const lines = new vscode.Range(Math.max(0, diagnostic.range.start.line - 2), 0, Math.min(document.lineCount - 1, diagnostic.range.end.line + 2), Number.MAX_SAFE_INTEGER);
      const source = diagnostic.source ? ` (${diagnostic.source}${diagnostic.code !== undefined ? ` ${codeOf(diagnostic.code)}` : ""})` : "";
      const problem = `${severity(diagnostic.severity)} at ${vscode.workspace.asRelativePath(uri, false)}:${diagnostic.range.start.line + 1}${source}: ${diagnostic.message}`;
      const running = ctx.supervisor.status === "running";
      const text = `${running ? "Also fix this problem" : "Fix this problem"}: ${problem}\n\n${fencedSnippet(document, document.validateRange(lines))}`;
      await sendMessage(ctx, text, "steer");
    }),
    vscode.commands.registerCommand("pi.compact", async (instructions?: string) => {
      const custom = instructions ?? (await vscode.window.showInputBox({ title: commandTitle(ctx, "Compact the Session"), prompt: "Optional instructions for the summary", ignoreFocusOut: true }));
      if (custom === undefined) return;
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Pi: compacting the session…" }, () =>
        run(ctx, "Compaction", async (client) => {
          const result = await client.request("compact", custom.trim() ? { customInstructions: custom.trim() } : {});
          void vscode.window.showInformationMessage(`Pi: compacted the session (${result.tokensBefore} tokens before).`);
          return result;
        }),
      );
    }),
  ];
}

/** Whether the document's text may go to the agent (readable-for-agent.ts); says why not. */
async function mayHandOver(document: vscode.TextDocument): Promise<boolean> {
  const shown = vscode.workspace.asRelativePath(document.uri, false);
  if ((await documentTextForAgent(document, shown)) !== undefined) return true;
  void vscode.window.showWarningMessage(`Pi: ${notificationText(notHandedOver(shown))}`);
  return false;
}

function codeOf(code: vscode.Diagnostic["code"]): string {
  return typeof code === "object" ? String(code.value) : String(code);
}

function severity(value: vscode.DiagnosticSeverity): string {
  return ["Error", "Warning", "Info", "Hint"][value] ?? "Problem";
}

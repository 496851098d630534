import * as vscode from "vscode";
import type { CancellationToken } from "vscode-jsonrpc";
import type { DialogAnswer, UiRequestOf } from "../../shared/protocol";

const contextKey = "pi.editorDialogActive";

interface OpenDialog {
  document: vscode.TextDocument;
  finish(answer: DialogAnswer): void;
}

/**
 * The `editor` dialog: a real editor document with the prefill, submitted or cancelled by the
 * Submit / Cancel actions in the editor title (shown while `pi.editorDialogActive`), or by the
 * Cancel button of its notification. Closing the editor cancels; so does the request's token.
 */
export class EditorDialogs implements vscode.Disposable {
  private readonly open = new Map<string, OpenDialog>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.commands.registerCommand("pi.dialog.submit", (uri?: vscode.Uri) => this.finish(uri, "submit")),
      vscode.commands.registerCommand("pi.dialog.cancel", (uri?: vscode.Uri) => this.finish(uri, "cancel")),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          if (tab.input instanceof vscode.TabInputText) this.open.get(tab.input.uri.toString())?.finish({ cancelled: true });
        }
      }),
    ];
  }

  /** The documents of open dialogs (for tests). */
  get documents(): vscode.TextDocument[] {
    return [...this.open.values()].map((d) => d.document);
  }

  async show(request: UiRequestOf<"editor">, token: CancellationToken): Promise<DialogAnswer> {
    const document = await vscode.workspace.openTextDocument({ content: request.prefill ?? "", language: "markdown" });
    const key = document.uri.toString();
    const answer = await new Promise<DialogAnswer>((resolve) => {
      let endProgress: () => void = () => undefined;
      const progressDone = new Promise<void>((r) => (endProgress = r));
      const finish = (value: DialogAnswer) => {
        if (!this.open.has(key)) return;
        this.open.delete(key);
        this.updateContext();
        subscription.dispose();
        endProgress();
        resolve(value);
      };
      const subscription = token.onCancellationRequested(() => finish({ cancelled: true }));
      this.open.set(key, { document, finish });
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Pi: ${request.title}`, cancellable: true },
        (progress, cancel) => {
          progress.report({ message: "edit the text, then choose Submit (✓) in the editor title." });
          cancel.onCancellationRequested(() => finish({ cancelled: true }));
          return progressDone;
        },
      );
      void vscode.window.showTextDocument(document, { preview: false }).then(() => this.updateContext());
      if (token.isCancellationRequested) finish({ cancelled: true });
    });
    await closeUntitled(document);
    return answer;
  }

  private finish(uri: vscode.Uri | undefined, how: "submit" | "cancel"): void {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    const dialog = target && this.open.get(target.toString());
    if (!dialog) return;
    dialog.finish(how === "submit" ? { value: dialog.document.getText() } : { cancelled: true });
  }

  private updateContext(): void {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    void vscode.commands.executeCommand("setContext", contextKey, active !== undefined && this.open.has(active));
  }

  dispose(): void {
    for (const dialog of [...this.open.values()]) dialog.finish({ cancelled: true });
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

/** Closes the scratch document without a save prompt. */
async function closeUntitled(document: vscode.TextDocument): Promise<void> {
  if (document.isClosed) return;
  const open = vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === document.uri.toString()));
  if (!open) return;
  await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
  await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
}

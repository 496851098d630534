import * as vscode from "vscode";
import type { CancellationToken } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest, UiRequestOf } from "../../shared/protocol";
import { settings } from "../settings";
import type { EditorDialogs } from "./editor-dialog";

const cancelled: DialogAnswer = { cancelled: true };

/** Answers an extension's dialog with native VS Code UI; Escape or expiry answer `cancelled`. */
export function showNativeDialog(request: DialogRequest, token: CancellationToken, editors: EditorDialogs): Promise<DialogAnswer> {
  switch (request.method) {
    case "select":
      return pick(request.title, undefined, request.options, token).then((value) => (value === undefined ? cancelled : { value }));
    case "confirm":
      return confirm(request, token);
    case "input":
      return input(request, token);
    case "editor":
      return editors.show(request, token);
  }
}

function pick(title: string, placeholder: string | undefined, options: string[], token: CancellationToken): Promise<string | undefined> {
  return new Promise((resolve) => {
    const quickPick = vscode.window.createQuickPick();
    quickPick.title = title;
    quickPick.placeholder = placeholder;
    quickPick.items = options.map((label) => ({ label }));
    quickPick.ignoreFocusOut = true;
    let result: string | undefined;
    const subs = [
      quickPick.onDidAccept(() => {
        result = quickPick.selectedItems[0]?.label;
        quickPick.hide();
      }),
      quickPick.onDidHide(() => {
        for (const sub of subs) sub.dispose();
        quickPick.dispose();
        resolve(result);
      }),
      token.onCancellationRequested(() => quickPick.hide()),
    ];
    quickPick.show();
  });
}

async function confirm(request: UiRequestOf<"confirm">, token: CancellationToken): Promise<DialogAnswer> {
  // A modal message cannot be closed when the request times out: use it only without a timeout.
  if (settings.confirmStyle === "modal" && !request.timeout) {
    const choice = await vscode.window.showInformationMessage(request.title, { modal: true, detail: request.message }, "Yes", "No");
    return choice === undefined ? cancelled : { confirmed: choice === "Yes" };
  }
  const choice = await pick(request.title, request.message, ["Yes", "No"], token);
  return choice === undefined ? cancelled : { confirmed: choice === "Yes" };
}

function input(request: UiRequestOf<"input">, token: CancellationToken): Promise<DialogAnswer> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = request.title;
    box.placeholder = request.placeholder;
    box.ignoreFocusOut = true;
    let answer: DialogAnswer = cancelled;
    const subs = [
      box.onDidAccept(() => {
        answer = { value: box.value };
        box.hide();
      }),
      box.onDidHide(() => {
        for (const sub of subs) sub.dispose();
        box.dispose();
        resolve(answer);
      }),
      token.onCancellationRequested(() => box.hide()),
    ];
    box.show();
  });
}

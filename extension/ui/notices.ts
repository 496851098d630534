import * as vscode from "vscode";
import { notificationText } from "./plain-text";
import type { UiNotice } from "../../shared/protocol";

/** Fire-and-forget extension-UI requests: messages, status bar items by key, and what the chat view shows. */
export class NoticePresenter implements vscode.Disposable {
  private readonly statusItems = new Map<string, vscode.StatusBarItem>();

  constructor(private readonly toChat: (notice: UiNotice) => void) {}

  show(notice: UiNotice): void {
    switch (notice.method) {
      case "notify": {
        const show =
          notice.notifyType === "error" ? vscode.window.showErrorMessage : notice.notifyType === "warning" ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
        // An extension's (or agent's) text: shown as written, its link syntax never a command link.
        void show(notificationText(notice.message));
        return;
      }
      case "setStatus":
        return this.setStatus(notice.statusKey, notice.statusText);
      default:
        this.toChat(notice);
    }
  }

  private setStatus(key: string, text: string | undefined): void {
    let item = this.statusItems.get(key);
    if (text === undefined || text === "") {
      item?.dispose();
      this.statusItems.delete(key);
      return;
    }
    if (!item) {
      item = vscode.window.createStatusBarItem(`pi.status.${key}`, vscode.StatusBarAlignment.Left, 50);
      item.name = `Pi: ${key}`;
      this.statusItems.set(key, item);
    }
    item.text = text;
    item.tooltip = `Pi extension status (${key})`;
    item.show();
  }

  /** Status texts by key, for tests and the sessions list. */
  get statuses(): Record<string, string> {
    return Object.fromEntries([...this.statusItems].map(([key, item]) => [key, item.text]));
  }

  clear(): void {
    for (const item of this.statusItems.values()) item.dispose();
    this.statusItems.clear();
  }

  dispose(): void {
    this.clear();
  }
}

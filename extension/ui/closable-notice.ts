import * as vscode from "vscode";
import { noticeLinks, type NoticeLink } from "./notice-links";

export type { NoticeLink } from "./notice-links";

/**
 * A notification that goes when its cause ends. VS Code cannot close a message it showed
 * (showErrorMessage and the like: the toast outlives a failed start that later succeeded, a
 * crash whose restart worked); a progress notification closes when its task ends. It has no
 * buttons but Cancel (which dismisses it), so what it offers are command links in its text, ours alone: `text` must be
 * escaped where built (notificationText), as the notification-text rule checks. `busy` shows the
 * moving bar of work under way (a restart soon); otherwise the bar stays still. Disposing closes it.
 */
export function closableNotice(text: string, links: readonly NoticeLink[] = [], options: { busy?: boolean } = {}): vscode.Disposable {
  let close: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (close = resolve));
  const title = [text, noticeLinks(links)].filter(Boolean).join(" ");
  // Cancellable: VS Code shows a notification with a button expanded (its whole text, the links
  // with it; without one the toast is a single line cut before them). Cancel dismisses the notice.
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    if (!options.busy) progress.report({ increment: 0 });
    await Promise.race([closed, new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()))]);
  });
  return { dispose: () => close() };
}

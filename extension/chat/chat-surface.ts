import * as vscode from "vscode";
import { checker } from "../../shared/protocol";
import { FromWebview, type ToWebview } from "../../shared/webview-protocol";

/**
 * Where a session's chat is shown: the side-bar view or an editor tab. The chat controller talks
 * only to this; a surface may have no webview at the moment (a closed tab, a hidden side bar),
 * then posts are dropped and the webview's `ready` replays the transcript when it comes back.
 */
export interface ChatSurface {
  readonly log: vscode.LogOutputChannel;
  readonly onMessage: vscode.Event<FromWebview>;
  /** The webview is on screen. */
  readonly visible: boolean;
  readonly onDidChangeVisibility: vscode.Event<void>;
  post(message: ToWebview): void;
  /** Shows the chat without taking focus (creating its webview if needed). */
  reveal(): void;
  /** An agent extension's setTitle; empty restores the default. */
  setTitle(title: string): void;
}

const checkFromWebview = checker(FromWebview, "webview message");

/** Validates what a chat webview sends and forwards the good messages; returns the subscription. */
export function receiveChatMessages(webview: vscode.Webview, log: vscode.LogOutputChannel, forward: (message: FromWebview) => void): vscode.Disposable {
  return webview.onDidReceiveMessage((value: unknown) => {
    const checked = checkFromWebview(value);
    if (checked.ok) forward(checked.frame);
    else log.warn(`Ignored a malformed message from the chat view: ${checked.error}`);
  });
}

import type * as vscode from "vscode";
import type { WebviewRequestHandlers } from "../../shared/webview-channel";
import type { FromWebview, ToWebview } from "../../shared/webview-protocol";

/**
 * Where a session's chat is shown: the side-bar view or an editor tab. The chat controller talks
 * only to this; a surface may have no webview at the moment (a closed tab, a hidden side bar),
 * then posts are dropped and the webview's `ready` replays the transcript when it comes back.
 * Messages travel over the typed channel of chat-channel.ts, one per webview.
 */
export interface ChatSurface {
  readonly log: vscode.LogOutputChannel;
  readonly onMessage: vscode.Event<FromWebview>;
  /** The webview is on screen. */
  readonly visible: boolean;
  readonly onDidChangeVisibility: vscode.Event<void>;
  /** The user worked in this chat: its session becomes the one commands act on. */
  readonly onDidBecomeActive: vscode.Event<void>;
  post(message: ToWebview): void;
  /** Who answers the webview's requests (the chat controller). */
  answerRequests(handlers: WebviewRequestHandlers): vscode.Disposable;
  /** Shows the chat without taking focus (creating its webview if needed). */
  reveal(): void;
  /** An agent extension's setTitle; empty restores the default. */
  setTitle(title: string): void;
  /** The session's title (name, else first prompt) beside the view's own, where the surface has room for one (the side bar). */
  setDescription?(text: string): void;
}

/** The request handlers of a surface: one at a time. */
export class RequestAnswerer {
  private handlers: WebviewRequestHandlers | undefined;

  readonly current = (): WebviewRequestHandlers | undefined => this.handlers;

  set(handlers: WebviewRequestHandlers): vscode.Disposable {
    this.handlers = handlers;
    return { dispose: () => this.handlers === handlers && (this.handlers = undefined) };
  }
}

import * as vscode from "vscode";
import type { WebviewRequestHandlers } from "../../shared/webview-channel";
import type { FromWebview } from "../../shared/webview-protocol";
import type { ChatChannel } from "./chat-channel";
import { RequestAnswerer } from "./chat-surface";
import { loadChat } from "./chat-webview";

/**
 * What the side bar's view and an editor tab's panel share as chat surfaces: the events of a
 * ChatSurface, who answers the webview's requests, and loading the chat into a webview whose
 * messages feed `onMessage`.
 */
export class ChatSurfaceEvents implements vscode.Disposable {
  private readonly messageEmitter = new vscode.EventEmitter<FromWebview>();
  readonly onMessage = this.messageEmitter.event;
  /** Fired when the webview shows, hides, appears or goes. */
  readonly visibility = new vscode.EventEmitter<void>();
  /** Fired when the user works in this chat (its session becomes the active one). */
  readonly active = new vscode.EventEmitter<void>();
  private readonly requests = new RequestAnswerer();

  answerRequests(handlers: WebviewRequestHandlers): vscode.Disposable {
    return this.requests.set(handlers);
  }

  load(webview: vscode.Webview, extensionUri: vscode.Uri, log: vscode.LogOutputChannel): ChatChannel {
    return loadChat(webview, extensionUri, log, (message) => (message.type === "focused" ? this.active.fire() : this.messageEmitter.fire(message)), this.requests.current);
  }

  dispose(): void {
    this.messageEmitter.dispose();
    this.visibility.dispose();
    this.active.dispose();
  }
}

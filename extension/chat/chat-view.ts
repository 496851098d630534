import * as vscode from "vscode";
import type { WebviewRequestHandlers } from "../../shared/webview-channel";
import type { ToWebview } from "../../shared/webview-protocol";
import type { ChatChannel } from "./chat-channel";
import type { ChatSurface } from "./chat-surface";
import { ChatSurfaceEvents } from "./surface-events";

export const CHAT_VIEW_ID = "pi.chat";

/**
 * The "Pi" chat webview in the side bar. Renders from the bundled dist/webview.js with a strict
 * CSP; messages travel over the typed channel (chat-channel.ts), checked before they are handled.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, ChatSurface, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private channel: ChatChannel | undefined;
  private title: string | undefined;
  private description: string | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly events = new ChatSurfaceEvents();
  readonly onMessage = this.events.onMessage;
  readonly onDidChangeVisibility = this.events.visibility.event;
  readonly onDidBecomeActive = this.events.active.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    readonly log: vscode.LogOutputChannel,
  ) {}

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    if (this.title) view.title = this.title;
    view.description = this.description;
    this.channel?.dispose();
    const channel = this.events.load(view.webview, this.extensionUri, this.log);
    this.channel = channel;
    this.subscriptions.push(
      channel,
      view.onDidChangeVisibility(() => this.events.visibility.fire()),
      view.onDidDispose(() => {
        channel.dispose();
        if (this.channel === channel) this.channel = undefined;
        this.view = undefined;
        this.events.visibility.fire();
      }),
    );
    // From no view to a view, shown or not: that is a change of `visible` too (a session made
    // before its view was resolved would never hear that it is on screen).
    this.events.visibility.fire();
  }

  post(message: ToWebview): void {
    this.channel?.post(message);
  }

  answerRequests(handlers: WebviewRequestHandlers): vscode.Disposable {
    return this.events.answerRequests(handlers);
  }

  /** The view's title (an agent extension's setTitle); empty restores the default. */
  setTitle(title: string): void {
    this.title = title || undefined;
    if (this.view) this.view.title = this.title ?? "Chat";
  }

  /** The session's title beside "Chat" in the view's header. */
  setDescription(text: string): void {
    this.description = text || undefined;
    if (this.view) this.view.description = this.description;
  }

  /** Shows the view without taking focus (opening the Pi side bar if needed). */
  reveal(): void {
    if (this.view) this.view.show(true);
    else void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  dispose(): void {
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
    this.channel = undefined;
    this.events.dispose();
  }
}

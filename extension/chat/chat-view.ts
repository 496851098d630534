import * as vscode from "vscode";
import type { WebviewRequestHandlers } from "../../shared/webview-channel";
import type { FromWebview, ToWebview } from "../../shared/webview-protocol";
import type { ChatChannel } from "./chat-channel";
import { RequestAnswerer, type ChatSurface } from "./chat-surface";
import { loadChat } from "./chat-webview";

export const CHAT_VIEW_ID = "pi.chat";

/**
 * The "Pi" chat webview in the side bar. Renders from the bundled dist/webview.js with a strict
 * CSP; messages travel over the typed channel (chat-channel.ts), checked before they are handled.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, ChatSurface, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private channel: ChatChannel | undefined;
  private readonly requests = new RequestAnswerer();
  private title: string | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly messageEmitter = new vscode.EventEmitter<FromWebview>();
  readonly onMessage = this.messageEmitter.event;
  private readonly visibilityEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeVisibility = this.visibilityEmitter.event;
  private readonly activeEmitter = new vscode.EventEmitter<void>();
  readonly onDidBecomeActive = this.activeEmitter.event;

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
    this.channel?.dispose();
    const channel = loadChat(view.webview, this.extensionUri, this.log, (message) => this.messageEmitter.fire(message), this.requests.current);
    this.channel = channel;
    this.subscriptions.push(
      channel,
      view.onDidChangeVisibility(() => this.visibilityEmitter.fire()),
      view.onDidDispose(() => {
        channel.dispose();
        if (this.channel === channel) this.channel = undefined;
        this.view = undefined;
        this.visibilityEmitter.fire();
      }),
    );
  }

  post(message: ToWebview): void {
    this.channel?.post(message);
  }

  answerRequests(handlers: WebviewRequestHandlers): vscode.Disposable {
    return this.requests.set(handlers);
  }

  claimActive(): void {
    this.activeEmitter.fire();
  }

  /** The view's title (an agent extension's setTitle); empty restores the default. */
  setTitle(title: string): void {
    this.title = title || undefined;
    if (this.view) this.view.title = this.title ?? "Chat";
  }

  /** Shows the view without taking focus (opening the Pi side bar if needed). */
  reveal(): void {
    if (this.view) this.view.show(true);
    else void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  dispose(): void {
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
    this.channel = undefined;
    this.messageEmitter.dispose();
    this.visibilityEmitter.dispose();
    this.activeEmitter.dispose();
  }
}

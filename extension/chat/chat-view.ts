import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { WebviewRequestHandlers } from "../../shared/webview-channel";
import type { FromWebview, ToWebview } from "../../shared/webview-protocol";
import { openChatChannel, type ChatChannel } from "./chat-channel";
import { RequestAnswerer, type ChatSurface } from "./chat-surface";

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
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    this.channel?.dispose();
    const channel = openChatChannel(view.webview, this.log, (message) => this.messageEmitter.fire(message), this.requests.current);
    this.channel = channel;
    view.webview.html = chatHtml(view.webview, dist);
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

export function chatHtml(webview: vscode.Webview, dist: vscode.Uri): string {
  const nonce = randomBytes(18).toString("base64");
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.js"));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.css"));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Pi</title>
</head>
<body>
<main id="app"></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

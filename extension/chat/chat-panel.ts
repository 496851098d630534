import * as vscode from "vscode";
import type { WebviewRequestHandlers } from "../../shared/webview-channel";
import type { ToWebview } from "../../shared/webview-protocol";
import type { ChatChannel } from "./chat-channel";
import type { ChatSurface } from "./chat-surface";
import { ChatSurfaceEvents } from "./surface-events";

export const CHAT_PANEL_TYPE = "pi.chatPanel";

/**
 * A session's chat in an editor tab. The surface outlives its tab: closing the tab only drops
 * the webview (the session decides whether its agent goes on), and `reveal()` opens a new tab
 * that replays the transcript.
 */
export class ChatPanelSurface implements ChatSurface, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private channel: ChatChannel | undefined;
  private panelSubscriptions: vscode.Disposable[] = [];
  private title: string;
  private readonly events = new ChatSurfaceEvents();
  readonly onMessage = this.events.onMessage;
  readonly onDidChangeVisibility = this.events.visibility.event;
  /** The tab became the active editor. */
  readonly onDidBecomeActive = this.events.active.event;
  private readonly closedEmitter = new vscode.EventEmitter<void>();
  /** The user closed the tab. */
  readonly onDidClose = this.closedEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    readonly log: vscode.LogOutputChannel,
    private label: string,
  ) {
    this.title = label;
  }

  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  post(message: ToWebview): void {
    this.channel?.post(message);
  }

  answerRequests(handlers: WebviewRequestHandlers): vscode.Disposable {
    return this.events.answerRequests(handlers);
  }

  reveal(preserveFocus = true): void {
    if (this.panel) return this.panel.reveal(undefined, preserveFocus);
    const panel = vscode.window.createWebviewPanel(
      CHAT_PANEL_TYPE,
      this.title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus },
      { retainContextWhenHidden: true }, // scripts and dist/ are set by loadChat
    );
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "media", "pi.svg");
    const channel = this.events.load(panel.webview, this.extensionUri, this.log);
    this.panel = panel;
    this.channel = channel;
    this.panelSubscriptions = [
      channel,
      panel.onDidChangeViewState((e) => {
        this.events.visibility.fire();
        if (e.webviewPanel.active) this.events.active.fire();
      }),
      panel.onDidDispose(() => {
        for (const sub of this.panelSubscriptions.splice(0)) sub.dispose();
        this.panel = undefined;
        this.channel = undefined;
        this.events.visibility.fire();
        this.closedEmitter.fire();
      }),
    ];
    this.events.visibility.fire(); // a tab now: `visible` changed with it
  }

  setTitle(title: string): void {
    this.title = title || this.label;
    if (this.panel) this.panel.title = this.title;
  }

  /** The session's name changed. */
  setLabel(label: string): void {
    const custom = this.title !== this.label;
    this.label = label;
    if (!custom) this.setTitle("");
  }

  dispose(): void {
    const panel = this.panel;
    this.panel = undefined;
    this.channel = undefined;
    for (const sub of this.panelSubscriptions.splice(0)) sub.dispose();
    panel?.dispose();
    this.events.dispose();
    this.closedEmitter.dispose();
  }
}

import type * as vscode from "vscode";
import type { ToWebview } from "../../shared/webview-protocol";
import type { ChatSurface } from "./chat-surface";
import { coalesceAppends } from "./coalesce-appends";
import { HistoryParts } from "./history-parts";
import { OffscreenChanges } from "./offscreen-changes";
import { Transcript } from "./transcript";

/**
 * A chat's transcript on its way to the webview: changes held while the webview is off screen and
 * sent once when it is back (offscreen-changes.ts), streamed text joined per few milliseconds
 * (coalesce-appends.ts), a long conversation sent in parts (history-parts.ts).
 */
export class TranscriptFeed implements vscode.Disposable {
  readonly transcript: Transcript;
  private readonly streamed: ReturnType<typeof coalesceAppends>;
  private readonly offscreen: OffscreenChanges;
  private readonly history: HistoryParts;
  private readonly visibility: vscode.Disposable;

  constructor(surface: Pick<ChatSurface, "visible" | "onDidChangeVisibility">, post: (message: ToWebview) => void) {
    this.streamed = coalesceAppends((message) => this.history.send(message));
    this.transcript = new Transcript((message) => this.offscreen.hold(message) || this.streamed.post(message));
    this.history = new HistoryParts(this.transcript, post);
    this.offscreen = new OffscreenChanges(this.transcript, () => surface.visible);
    // Back on screen: what changed meanwhile, once.
    this.visibility = surface.onDidChangeVisibility(() => {
      if (surface.visible && this.offscreen.holding) for (const message of this.offscreen.flush()) this.streamed.post(message);
    });
  }

  /** The webview asks for older entries of a long conversation (history-parts.ts). */
  older(all: boolean): void {
    this.history.older(all);
  }

  /** The webview (re)loaded: the whole transcript, once (held text first: the reset contains it). */
  reset(): void {
    this.streamed.flush();
    this.offscreen.forget();
    this.history.send(this.transcript.resetMessage());
  }

  dispose(): void {
    this.visibility.dispose();
    this.streamed.dispose();
    this.history.dispose();
  }
}

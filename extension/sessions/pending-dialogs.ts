import * as vscode from "vscode";
import { CancellationTokenSource } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest } from "../../shared/protocol";
import type { DialogHandler } from "../../shared/rpc";

export interface PendingDialog {
  readonly request: DialogRequest;
  /** When it opened (epoch ms). */
  readonly since: number;
}

/**
 * The dialogs a session's agent is waiting on, answerable from outside the place they are shown
 * (a notification, the sessions list): no question is lost when its tab is closed or its quick
 * pick was dismissed. An outside answer goes to the chat card when there is one (so the card says
 * how it was answered), otherwise it ends the dialog directly.
 */
export class PendingDialogs implements vscode.Disposable {
  private readonly open = new Map<string, PendingDialog & { answer(answer: DialogAnswer): void; close(): void }>();
  private readonly changeEmitter = new vscode.EventEmitter<{ opened?: PendingDialog }>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly answerCard: (id: string, answer: DialogAnswer) => boolean) {}

  get list(): PendingDialog[] {
    return [...this.open.values()].map(({ request, since }) => ({ request, since }));
  }

  get size(): number {
    return this.open.size;
  }

  /** Wraps the handler that shows dialogs so each open one is tracked here. */
  track(show: DialogHandler): DialogHandler {
    return async (request, token) => {
      const source = new CancellationTokenSource();
      const link = token.onCancellationRequested(() => source.cancel());
      let answerOutside: (answer: DialogAnswer) => void = () => undefined;
      const outside = new Promise<DialogAnswer>((resolve) => (answerOutside = resolve));
      const entry = {
        request,
        since: Date.now(),
        close: () => source.cancel(),
        answer: (answer: DialogAnswer) => {
          if (this.answerCard(request.id, answer)) return;
          answerOutside(answer);
          source.cancel();
        },
      };
      this.open.set(request.id, entry);
      this.changeEmitter.fire({ opened: { request, since: entry.since } });
      try {
        return await Promise.race([show(request, source.token), outside]);
      } finally {
        link.dispose();
        source.dispose();
        if (this.open.get(request.id) === entry) this.open.delete(request.id);
        this.changeEmitter.fire({});
      }
    };
  }

  /**
   * Ends every open dialog as cancelled, everywhere it shows (native UI, chat card, this list, the
   * status): for a run that was aborted, whose agent no longer waits for them (Pi resolves an
   * aborted dialog itself and tells the client nothing).
   */
  cancelOpen(): void {
    for (const entry of [...this.open.values()]) entry.close();
  }

  /** Answers an open dialog; false when it is no longer open. */
  answer(id: string, answer: DialogAnswer): boolean {
    const entry = this.open.get(id);
    if (!entry) return false;
    entry.answer(answer);
    return true;
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

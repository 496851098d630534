import { CancellationTokenSource, type CancellationToken } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest } from "../../shared/protocol";
import type { DialogHandler } from "../../shared/rpc";

/** Where an extension's dialog is shown: `pi.dialogs.surface`. */
export type DialogSurface = "native" | "inline" | "both";

/** How a dialog ended, as its card shows it. */
export type DialogEnd =
  | { answer: DialogAnswer; via: "inline" | "native" }
  | { timedOut: true }
  | { cancelled: true };

/** A dialog's card in the chat. */
export interface InlineDialogCard {
  /** Resolves with the answer given on the card (never rejects). */
  readonly answer: Promise<DialogAnswer>;
  /** The native prompt was dismissed without an answer: the card stays answerable. */
  nativeDismissed(): void;
  close(end: DialogEnd): void;
}

export interface InlineDialogs {
  open(request: DialogRequest, deadline: number | undefined): InlineDialogCard;
}

const cancelledAnswer: DialogAnswer = { cancelled: true };
/** Timers fire a little early or late: a cancellation this close to the deadline is the timeout. */
const deadlineSlackMs = 250;

/**
 * Shows each dialog natively and as a card in the chat at the same time; the first answer wins
 * and the other closes. A native prompt dismissed without an answer (Escape, lost focus, a closed
 * notification) leaves the card answerable, so no question is lost. When the agent's side ends
 * the dialog (its timeout, a withdrawal, the agent exiting) both close and the card says so.
 */
export function raceDialogs(
  native: DialogHandler,
  inline: InlineDialogs,
  surface: () => DialogSurface,
  now: () => number = Date.now,
): DialogHandler {
  return async (request, token) => {
    const mode = surface();
    if (mode === "native") return native(request, token);
    const timeout = "timeout" in request && typeof request.timeout === "number" && request.timeout > 0 ? request.timeout : undefined;
    const deadline = timeout === undefined ? undefined : now() + timeout;
    const card = inline.open(request, deadline);
    const nativeSource = new CancellationTokenSource();
    const ended = onCancelled(token);
    try {
      const inlineAnswer = card.answer.then((answer) => ({ answer, via: "inline" as const }));
      let nativeAnswer: Promise<{ answer: DialogAnswer; via: "native" } | undefined> = new Promise(() => undefined);
      if (mode === "both") {
        const raw = native(request, nativeSource.token).then(
          (answer) => ({ answer, via: "native" as const }),
          () => ({ answer: cancelledAnswer, via: "native" as const }),
        );
        // Dismissed without an answer: keep waiting for the card.
        nativeAnswer = raw.then((result) => {
          if (!("cancelled" in result.answer) || token.isCancellationRequested || nativeSource.token.isCancellationRequested) return result;
          card.nativeDismissed();
          return new Promise<undefined>(() => undefined);
        });
      }
      const winner = await Promise.race([inlineAnswer, nativeAnswer, ended.promise.then(() => undefined)]);
      if (!winner || token.isCancellationRequested) {
        const timedOut = deadline !== undefined && now() >= deadline - deadlineSlackMs;
        card.close(timedOut ? { timedOut: true } : { cancelled: true });
        return cancelledAnswer;
      }
      card.close(winner);
      return winner.answer;
    } finally {
      nativeSource.cancel();
      nativeSource.dispose();
      ended.dispose();
    }
  };
}

function onCancelled(token: CancellationToken): { promise: Promise<void>; dispose(): void } {
  let sub: { dispose(): void } | undefined;
  const promise = new Promise<void>((resolve) => {
    if (token.isCancellationRequested) return resolve();
    sub = token.onCancellationRequested(() => resolve());
  });
  return { promise, dispose: () => sub?.dispose() };
}

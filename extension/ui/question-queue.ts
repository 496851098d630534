import type { CancellationToken } from "vscode-jsonrpc";

interface Question {
  readonly id: string;
  start(): void;
  skip(): void;
}

/**
 * Native questions one at a time, window-wide: VS Code shows a single quick input, and showing a
 * second one hides the first, which would read as the user dismissing it. A question waits here
 * until the one before it is answered (its chat card is answerable meanwhile); one whose token is
 * cancelled while it waits (answered on its card, withdrawn, its run aborted) is never shown.
 */
export class QuestionQueue {
  private readonly waiting: Question[] = [];
  private shown: Question | undefined;

  /** Shows `show()` when every question before it has ended; `skipped` when cancelled before that. */
  run<T>(id: string, token: CancellationToken, show: () => Promise<T>, skipped: T): Promise<T> {
    return new Promise<T>((resolve) => {
      let cancelSub: { dispose(): void } | undefined;
      const question: Question = {
        id,
        start: () => {
          cancelSub?.dispose();
          show().then(resolve, () => resolve(skipped)).finally(() => this.next(question));
        },
        skip: () => {
          cancelSub?.dispose();
          resolve(skipped);
        },
      };
      if (token.isCancellationRequested) return resolve(skipped);
      cancelSub = token.onCancellationRequested(() => {
        const at = this.waiting.indexOf(question);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        question.skip();
      });
      this.waiting.push(question);
      if (!this.shown) this.next(undefined);
    });
  }

  /** Moves a waiting question to the front ("Answer…" from elsewhere); true when it waits or is shown. */
  promote(id: string): boolean {
    if (this.shown?.id === id) return true;
    const at = this.waiting.findIndex((q) => q.id === id);
    if (at < 0) return false;
    this.waiting.unshift(...this.waiting.splice(at, 1));
    return true;
  }

  /** How many questions wait behind the one shown. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  private next(ended: Question | undefined): void {
    if (ended && this.shown !== ended) return;
    this.shown = this.waiting.shift();
    this.shown?.start();
  }
}

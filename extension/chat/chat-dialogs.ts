import type { DialogAnswer, DialogRequest } from "../../shared/protocol";
import type { ChatItemOf } from "../../shared/webview-protocol";
import type { DialogEnd, InlineDialogCard, InlineDialogs } from "./dialog-race";
import type { Transcript } from "./transcript";

/** The chat's side of extension dialogs: a card per request, answered from the webview. */
export class ChatDialogs implements InlineDialogs {
  private readonly waiting = new Map<string, (answer: DialogAnswer) => void>();

  constructor(
    private readonly transcript: Transcript,
    /** Brings the chat into view, e.g. when a native prompt was dismissed. */
    private readonly reveal: () => void = () => undefined,
  ) {}

  open(request: DialogRequest, deadline: number | undefined): InlineDialogCard {
    const key = this.transcript.newKey("dialog");
    const card: ChatItemOf<"dialog"> = { key, kind: "dialog", id: request.id, method: request.method, title: request.title, state: "open" };
    if (request.method === "select") card.options = request.options;
    if (request.method === "confirm") card.message = request.message;
    if (request.method === "input" && request.placeholder !== undefined) card.placeholder = request.placeholder;
    if (request.method === "editor" && request.prefill !== undefined) card.prefill = request.prefill;
    if (deadline !== undefined) card.deadline = deadline;
    this.waiting.get(request.id)?.({ cancelled: true });
    const answer = new Promise<DialogAnswer>((resolve) => this.waiting.set(request.id, resolve));
    this.transcript.upsert(card);
    return {
      answer,
      nativeDismissed: () => {
        this.transcript.update(key, "dialog", { nativeDismissed: true });
        this.reveal();
      },
      close: (end) => {
        this.waiting.delete(request.id);
        this.transcript.update(key, "dialog", endState(end));
      },
    };
  }

  /** An answer from the card; false when the dialog is no longer open. */
  answer(id: string, answer: DialogAnswer): boolean {
    const resolve = this.waiting.get(id);
    if (!resolve) return false;
    this.waiting.delete(id);
    resolve(answer);
    return true;
  }

  get openIds(): string[] {
    return [...this.waiting.keys()];
  }
}

function endState(end: DialogEnd): Partial<ChatItemOf<"dialog">> {
  if ("timedOut" in end) return { state: "timedOut", nativeDismissed: undefined };
  if ("cancelled" in end || "cancelled" in end.answer) return { state: "cancelled", via: "via" in end ? end.via : undefined, nativeDismissed: undefined };
  return { state: "answered", answer: describeAnswer(end.answer), via: end.via, nativeDismissed: undefined };
}

export function describeAnswer(answer: DialogAnswer): string {
  if ("confirmed" in answer) return answer.confirmed ? "Yes" : "No";
  if ("value" in answer) return answer.value;
  return "cancelled";
}

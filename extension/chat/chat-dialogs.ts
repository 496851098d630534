import type { DialogAnswer, DialogRequest } from "../../shared/protocol";
import type { DialogHandler } from "../../shared/rpc";
import type { ChatItemOf } from "../../shared/chat-items";
import type { DialogEnd, InlineDialogCard, InlineDialogs } from "./dialog-race";
import type { Transcript } from "./transcript";

/** The tools the chat's questions are about (chat-events.ts). */
export interface AskingTools {
  /** The cards of the tools running now, in start order (a tool's question is asked while it runs). */
  readonly runningTools: readonly string[];
  /** A question about the tool of this card is open until the returned function is called. */
  questionOpen(toolKey: string): () => void;
}

const noTools: AskingTools = { runningTools: [], questionOpen: () => () => undefined };

/** The chat's side of extension dialogs: a card per request, answered from the webview. */
export class ChatDialogs implements InlineDialogs {
  private readonly waiting = new Map<string, (answer: DialogAnswer) => void>();
  /** Running tools that have a question beside them already. */
  private readonly asked = new Set<string>();
  /** The tool each question being handled is about (aboutTools), for its card. */
  private readonly toolOf = new Map<string, string | undefined>();

  constructor(
    private readonly transcript: Transcript,
    /** Brings the chat into view, e.g. when a native prompt was dismissed. */
    private readonly reveal: () => void = () => undefined,
    private readonly tools: AskingTools = noTools,
  ) {}

  /**
   * Wraps the chat's dialog handler: a question is linked to the tool that asks it once, on
   * whichever surface it shows (its card goes beside that tool), and the tool's time stops while
   * the question waits for the user.
   */
  aboutTools(handler: DialogHandler): DialogHandler {
    return async (request, token) => {
      const tool = this.askingTool(request);
      this.toolOf.set(request.id, tool);
      const answered = tool === undefined ? undefined : this.tools.questionOpen(tool);
      try {
        return await handler(request, token);
      } finally {
        answered?.();
        if (this.toolOf.get(request.id) === tool) this.toolOf.delete(request.id);
      }
    };
  }

  /**
   * The tool a new question is about: the first running tool without a question yet (tools ask
   * in the order they started); none for a question no tool asks (a command's, an extension's).
   */
  private askingTool(request: DialogRequest): string | undefined {
    const running = this.tools.runningTools;
    for (const key of this.asked) if (!running.includes(key)) this.asked.delete(key);
    // Our host names the call; for other agents the order of starts stands in for it.
    const named = request.method === "select" && request.toolCallId !== undefined ? `tool-${request.toolCallId}` : undefined;
    const tool = named ?? running.find((key) => !this.asked.has(key));
    if (tool) this.asked.add(tool);
    return tool;
  }

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
    this.transcript.upsert(card, this.toolOf.has(request.id) ? this.toolOf.get(request.id) : this.askingTool(request));
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

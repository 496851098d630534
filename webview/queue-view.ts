import type { FromWebview, QueueState } from "../shared/webview-protocol";
import { h, iconButton } from "./dom";
import { oneLine } from "./format";

/**
 * Messages waiting for the running agent: steering (delivered after the current tool calls)
 * and follow-ups (when it would stop). Each can be removed or taken back into the input box.
 */
export class QueueView {
  private queue: QueueState = { steering: [], followUp: [] };

  constructor(
    private readonly element: HTMLElement,
    private readonly post: (message: FromWebview) => void,
    private readonly edit: (text: string) => void,
  ) {}

  get length(): number {
    return this.queue.steering.length + this.queue.followUp.length;
  }

  set(queue: QueueState): void {
    this.queue = queue;
    this.render();
  }

  private render(): void {
    const rows = [
      ...this.queue.steering.map((text, index) => this.row("steering", index, text)),
      ...this.queue.followUp.map((text, index) => this.row("followUp", index, text)),
    ];
    this.element.hidden = rows.length === 0;
    this.element.replaceChildren(h("div", { class: "queue-title" }, `Queued (${rows.length})`), ...rows);
  }

  private row(kind: keyof QueueState, index: number, text: string): HTMLElement {
    const remove = iconButton("close", "Remove from the queue", "queue-remove");
    const edit = iconButton("edit", "Edit: take back into the input box", "queue-edit");
    remove.addEventListener("click", () => this.without(kind, index));
    edit.addEventListener("click", () => {
      this.without(kind, index);
      this.edit(text);
    });
    return h(
      "div",
      { class: "queue-item", "data-kind": kind, role: "listitem" },
      h("span", { class: "queue-kind" }, kind === "steering" ? "steer" : "follow-up"),
      h("span", { class: "queue-text", title: text }, oneLine(text, 200)),
      edit,
      remove,
    );
  }

  /** The queue without one message, sent to the agent as the new queue. */
  private without(kind: keyof QueueState, index: number): void {
    const next: QueueState = { steering: [...this.queue.steering], followUp: [...this.queue.followUp] };
    next[kind].splice(index, 1);
    this.set(next);
    this.post({ type: "queueEdit", queue: next });
  }
}

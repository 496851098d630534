import type { FromWebview, QueueState } from "../shared/webview-protocol";
import { h, iconButton } from "./dom";
import { oneLine } from "./format";
import { moveQueued, sendQueuedNow, withoutQueued, type QueueKind } from "./queue-edit";

/** Where focus goes after a re-render: the same control of the entry that moved. */
interface FocusTarget {
  kind: QueueKind;
  index: number;
  action: string;
}

/**
 * Messages waiting for the running agent: steering (delivered after the current tool calls)
 * and follow-ups (when it would stop). Each can be removed, taken back into the input box,
 * moved up or down (buttons, or Alt+Up/Down on a focused entry) or sent now (steered first).
 */
export class QueueView {
  private queue: QueueState = { steering: [], followUp: [] };
  /** Sent to an agent that reports no queue: shown, not editable. */
  private unconfirmed = false;

  constructor(
    private readonly element: HTMLElement,
    private readonly post: (message: FromWebview) => void,
    private readonly edit: (text: string) => void,
  ) {
    element.addEventListener("keydown", (event) => this.keydown(event));
  }

  get length(): number {
    return this.queue.steering.length + this.queue.followUp.length;
  }

  set(queue: QueueState, unconfirmed = false): void {
    const focused = this.focusedTarget();
    this.queue = queue;
    this.unconfirmed = unconfirmed;
    this.render(focused);
  }

  private render(focus?: FocusTarget): void {
    const rows = [
      ...this.queue.steering.map((text, index) => this.row("steering", index, text)),
      ...this.queue.followUp.map((text, index) => this.row("followUp", index, text)),
    ];
    this.element.hidden = rows.length === 0;
    const title = this.unconfirmed ? `Sent (${rows.length}) · waiting for the agent to take it` : `Queued (${rows.length})`;
    this.element.replaceChildren(h("div", { class: "queue-title", "aria-hidden": "true" }, title), ...rows);
    if (focus) this.focus(focus);
  }

  private row(kind: QueueKind, index: number, text: string): HTMLElement {
    const count = this.queue[kind].length;
    const label = kind === "steering" ? "steer" : "follow-up";
    if (this.unconfirmed) {
      return h(
        "div",
        { class: "queue-item", "data-kind": kind, "data-index": index, "data-unconfirmed": "true", role: "listitem", "aria-label": `${label}, sent, not yet taken by the agent: ${oneLine(text, 200)}` },
        h("span", { class: "queue-kind" }, `${label} · sent`),
        h("span", { class: "queue-text", title: text }, oneLine(text, 2000)),
      );
    }
    const buttons = [
      this.button("arrow-up", "Move up", "queue-up", () => this.move(kind, index, -1), index === 0),
      this.button("arrow-down", "Move down", "queue-down", () => this.move(kind, index, 1), index === count - 1),
      this.button("send", "Send now: steer the agent with this message first", "queue-send-now", () => this.change(sendQueuedNow(this.queue, kind, index), { kind: "steering", index: 0, action: "queue-send-now" })),
      this.button("edit", "Edit: take back into the input box", "queue-edit", () => {
        this.change(withoutQueued(this.queue, kind, index));
        this.edit(text);
      }),
      this.button("close", "Remove from the queue", "queue-remove", () => this.change(withoutQueued(this.queue, kind, index), this.neighbour(kind, index))),
    ];
    return h(
      "div",
      {
        class: "queue-item",
        "data-kind": kind,
        "data-index": index,
        role: "listitem",
        "aria-label": `${label} ${index + 1} of ${count}: ${oneLine(text, 200)}. Alt+Up or Alt+Down moves it.`,
      },
      h("span", { class: "queue-kind" }, label),
      h("span", { class: "queue-text", title: text }, oneLine(text, 2000)),
      ...buttons,
    );
  }

  private button(name: string, label: string, action: string, run: () => void, disabled = false): HTMLButtonElement {
    const button = iconButton(name, label, action, { "aria-disabled": disabled ? "true" : undefined });
    // aria-disabled (not disabled) keeps the button focusable, so focus does not jump away.
    button.addEventListener("click", () => !disabled && run());
    return button;
  }

  /** Alt+Up/Down on any control of an entry moves the entry. */
  private keydown(event: KeyboardEvent): void {
    if (this.unconfirmed || !event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    const target = this.targetOf(event.target);
    if (!target) return;
    event.preventDefault();
    event.stopPropagation();
    this.move(target.kind, target.index, event.key === "ArrowUp" ? -1 : 1, target.action);
  }

  private move(kind: QueueKind, index: number, delta: -1 | 1, action = delta < 0 ? "queue-up" : "queue-down"): void {
    const moved = moveQueued(this.queue, kind, index, delta);
    if (moved) this.change(moved.queue, { kind, index: moved.index, action });
  }

  /** Shows the edited queue at once and sends it to the agent as the new queue. */
  private change(next: QueueState, focus?: FocusTarget): void {
    this.queue = next;
    this.render(focus);
    this.post({ type: "queueEdit", queue: next });
  }

  /** After a removal: the entry that took its place, or the one before. */
  private neighbour(kind: QueueKind, index: number): FocusTarget | undefined {
    const left = this.queue[kind].length - 1;
    if (left > 0) return { kind, index: Math.min(index, left - 1), action: "queue-remove" };
    const other: QueueKind = kind === "steering" ? "followUp" : "steering";
    return this.queue[other].length > 0 ? { kind: other, index: 0, action: "queue-remove" } : undefined;
  }

  private focus(target: FocusTarget): void {
    const row = this.element.querySelector<HTMLElement>(`.queue-item[data-kind="${target.kind}"][data-index="${target.index}"]`);
    (row?.querySelector<HTMLElement>(`[data-action="${target.action}"]`) ?? row?.querySelector<HTMLElement>("button"))?.focus();
  }

  private focusedTarget(): FocusTarget | undefined {
    return this.element.contains(document.activeElement) ? this.targetOf(document.activeElement) : undefined;
  }

  private targetOf(node: EventTarget | null): FocusTarget | undefined {
    if (!(node instanceof Element)) return undefined;
    const row = node.closest<HTMLElement>(".queue-item");
    const kind = row?.dataset.kind;
    if (!row || (kind !== "steering" && kind !== "followUp")) return undefined;
    return { kind, index: Number(row.dataset.index), action: node.closest<HTMLElement>("[data-action]")?.dataset.action ?? "queue-up" };
  }
}

import type { FromWebview } from "../../shared/webview-protocol";
import type { ChatItemOf } from "../../shared/chat-items";
import { h, icon } from "../dom";
import { visibleText } from "../../shared/visible-text";
import { formatCountdown } from "../format";
import { article, itemHeader, type ItemContext, type ItemView } from "./common";

type DialogItem = ChatItemOf<"dialog">;
type Answer = Extract<FromWebview, { type: "dialogAnswer" }>["answer"];
type Field = HTMLElement & { value: string };

/** Longer answers than this give way (cut, whole in their tooltip) so that the choices keep to one line. */
const shortAnswer = 16;

/**
 * An extension's question in the chat, answerable here while the native prompt is also open.
 * A choice (select, confirm) is a compact mirror of the quick pick: a line of what is asked (the
 * whole question unfolds from it) and a line of small buttons, the first answer the primary one.
 * Shows a countdown when the dialog has a timeout, and afterwards how it ended, folded in place.
 */
export class DialogView implements ItemView {
  element: HTMLElement;
  private timer: ReturnType<typeof setInterval> | undefined;
  private field: Field | undefined;

  constructor(
    private item: DialogItem,
    private readonly ctx: ItemContext,
  ) {
    this.element = this.build();
  }

  update(item: DialogItem): void {
    const draft = this.field?.value;
    this.item = item;
    const next = this.build();
    if (draft !== undefined && this.field) this.field.value = draft;
    this.element.replaceWith(next);
    this.element = next;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private build(): HTMLElement {
    this.dispose();
    const item = this.item;
    const element = article(item, `Question: ${item.title}`);
    element.dataset.state = item.state;
    element.dataset.method = item.method;
    element.setAttribute("role", "group");
    const countdown = item.state === "open" && item.deadline !== undefined ? h("span", { class: "dialog-countdown", "aria-live": "off" }) : null;
    // Whole, with newlines and control characters visible: what the user approves is what runs.
    const title = h("div", { class: "dialog-title" }, visibleText(item.title));
    const message = item.message ? h("div", { class: "dialog-message" }, visibleText(item.message)) : null;
    this.field = undefined;
    if (item.state !== "open") {
      // Over: folded in place to one line, its title and how it ended; the question whole when unfolded.
      const fold = h("details", { class: "dialog-fold" }, h("summary", { title: "Show the whole question" }, title, this.outcome()));
      if (message) fold.append(message);
      element.append(fold);
      return element;
    }
    const note = item.nativeDismissed ? h("div", { class: "dialog-note" }, "Dismissed in VS Code: answer here, or cancel.") : null;
    if (item.method !== "input" && item.method !== "editor") {
      // One line of the question (cut where it is long; unfolded, the whole of it), then the choices.
      element.classList.add("dialog-compact");
      // The message (a command to confirm, …) follows the title on that line, whole when unfolded.
      const preview = item.message ? h("span", { class: "dialog-message-line" }, visibleText(item.message).replace(/\n/g, " ⏎ ")) : null;
      const fold = h("details", { class: "dialog-fold" }, h("summary", { title: "Show the whole question" }, title, preview));
      if (message) fold.append(message);
      element.append(h("div", { class: "dialog-head" }, icon("question"), fold, countdown), ...(note ? [note] : []), this.choices());
    } else {
      element.append(itemHeader("question", "Question", countdown), title, ...(message ? [message] : []), ...(note ? [note] : []), this.fieldControls(item.method));
    }
    if (countdown) this.startCountdown(countdown);
    return element;
  }

  /** The answers of a select or confirm as small buttons on a line: the first primary, a long one cut (whole in its tooltip), Cancel last. */
  private choices(): HTMLElement {
    const item = this.item;
    const options: [string, Answer][] = item.method === "confirm" ? [["Yes", { confirmed: true }], ["No", { confirmed: false }]] : (item.options ?? []).map((option) => [option, { value: option }]);
    const buttons = options.map(([option, answer], i) => {
      const label = visibleText(option);
      const b = h("button", { type: "button", class: `dialog-choice${i === 0 ? " primary" : ""}`, "data-option": option, title: label, ...(label.length > shortAnswer ? { "data-long": "" } : {}) }, h("span", { class: "dialog-choice-label" }, label));
      b.addEventListener("click", () => this.answer(answer));
      return b;
    });
    const cancel = h("button", { type: "button", class: "dialog-choice dialog-cancel", "data-action": "cancel", title: "Cancel: no answer", "aria-label": "Cancel" }, icon("close"));
    cancel.addEventListener("click", () => this.answer({ cancelled: true }));
    return h("div", { class: "dialog-options dialog-choices", role: "group", "aria-label": item.title }, ...buttons, cancel);
  }

  /** A field (input: a line, Enter submits; editor: lines, Ctrl+Enter submits), Submit and Cancel. */
  private fieldControls(method: "input" | "editor"): HTMLElement {
    const item = this.item;
    const cancel = h("vscode-button", { secondary: true, "data-action": "cancel" }, "Cancel");
    cancel.addEventListener("click", () => this.answer({ cancelled: true }));
    const field = (method === "input"
      ? h("vscode-textfield", { class: "dialog-field", placeholder: item.placeholder ?? "", "aria-label": item.title })
      : h("vscode-textarea", { class: "dialog-field", rows: 6, resize: "vertical", "aria-label": item.title })) as Field;
    if (item.prefill !== undefined) field.value = item.prefill;
    field.addEventListener("keydown", (event: KeyboardEvent) => {
      const submit = method === "input" ? event.key === "Enter" : event.key === "Enter" && (event.ctrlKey || event.metaKey);
      if (submit && !event.isComposing) {
        event.preventDefault();
        this.answer({ value: field.value });
      }
    });
    this.field = field;
    return h("div", { class: "dialog-controls" }, field, h("div", { class: "dialog-options" }, this.submitButton(field), cancel));
  }

  private submitButton(field: Field): HTMLElement {
    const submit = h("vscode-button", { "data-action": "submit" }, "Submit");
    submit.addEventListener("click", () => this.answer({ value: field.value }));
    return submit;
  }

  private outcome(): HTMLElement {
    const item = this.item;
    const where = item.via === "native" ? " in VS Code" : item.via === "inline" ? " here" : "";
    switch (item.state) {
      case "answered":
        return h("span", { class: "dialog-outcome answered" }, icon("check"), h("span", { class: "dialog-answer" }, visibleText(item.answer ?? "")), h("span", { class: "dialog-via" }, `answered${where}`));
      case "timedOut":
        return h("span", { class: "dialog-outcome timed-out" }, icon("watch"), "Timed out");
      default:
        return h("span", { class: "dialog-outcome cancelled" }, icon("close"), `Cancelled${where}`);
    }
  }

  private startCountdown(target: HTMLElement): void {
    const deadline = (this.item.deadline ?? 0) + this.ctx.clockSkew();
    const tick = () => {
      const left = deadline - Date.now();
      target.textContent = left > 0 ? `${formatCountdown(left)} left` : "time is up";
      if (left <= 0) this.dispose();
    };
    tick();
    this.timer = setInterval(tick, 250);
  }

  private answer(answer: Answer): void {
    if (this.item.state !== "open") return;
    this.ctx.post({ type: "dialogAnswer", id: this.item.id, answer });
    for (const control of Array.from(this.element.querySelectorAll("vscode-button, button.dialog-choice"))) control.setAttribute("disabled", "");
  }
}

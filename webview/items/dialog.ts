import type { ChatItemOf, FromWebview } from "../../shared/webview-protocol";
import { h, icon } from "../dom";
import { visibleText } from "../../shared/visible-text";
import { formatCountdown } from "../format";
import { article, itemHeader, type ItemContext, type ItemView } from "./common";

type DialogItem = ChatItemOf<"dialog">;
type Answer = Extract<FromWebview, { type: "dialogAnswer" }>["answer"];
type Field = HTMLElement & { value: string };

/**
 * An extension's question in the chat, answerable here while the native prompt is also open.
 * Shows a countdown when the dialog has a timeout, and afterwards how it ended.
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
    element.append(itemHeader("question", "Question", countdown));
    // Whole, with newlines and control characters visible: what the user approves is what runs.
    const title = h("div", { class: "dialog-title" }, visibleText(item.title));
    const message = item.message ? h("div", { class: "dialog-message" }, visibleText(item.message)) : null;
    this.field = undefined;
    if (item.state !== "open") {
      // Over: folded to a line of its title and how it ended; the question whole when unfolded.
      const fold = h("details", { class: "dialog-fold" }, h("summary", { title: "Show the whole question" }, title));
      if (message) fold.append(message);
      element.append(fold, this.outcome());
      return element;
    }
    element.append(title);
    if (message) element.append(message);
    if (item.nativeDismissed) element.append(h("div", { class: "dialog-note" }, "Dismissed in VS Code: answer here, or cancel."));
    element.append(this.controls());
    if (countdown) this.startCountdown(countdown);
    return element;
  }

  private controls(): HTMLElement {
    const item = this.item;
    const controls = h("div", { class: "dialog-controls" });
    const button = (label: string, answer: Answer, attrs: Record<string, string | boolean> = {}) => {
      const b = h("vscode-button", { ...attrs }, label);
      b.addEventListener("click", () => this.answer(answer));
      return b;
    };
    const cancel = button("Cancel", { cancelled: true }, { secondary: true, "data-action": "cancel" });
    switch (item.method) {
      case "select":
        // One primary answer (the first, "Allow once" for a permission); the others, Deny above all, quieter.
        controls.append(
          h("div", { class: "dialog-options", role: "group", "aria-label": item.title }, ...(item.options ?? []).map((option, i) => button(visibleText(option), { value: option }, { "data-option": option, ...(i > 0 ? { secondary: true } : {}) })), cancel),
        );
        return controls;
      case "confirm":
        controls.append(h("div", { class: "dialog-options" }, button("Yes", { confirmed: true }, { "data-option": "Yes" }), button("No", { confirmed: false }, { secondary: true, "data-option": "No" }), cancel));
        return controls;
      case "input":
      case "editor": {
        const field = (item.method === "input"
          ? h("vscode-textfield", { class: "dialog-field", placeholder: item.placeholder ?? "", "aria-label": item.title })
          : h("vscode-textarea", { class: "dialog-field", rows: 6, resize: "vertical", "aria-label": item.title })) as Field;
        if (item.prefill !== undefined) field.value = item.prefill;
        field.addEventListener("keydown", (event: KeyboardEvent) => {
          const submit = item.method === "input" ? event.key === "Enter" : event.key === "Enter" && (event.ctrlKey || event.metaKey);
          if (submit && !event.isComposing) {
            event.preventDefault();
            this.answer({ value: field.value });
          }
        });
        this.field = field;
        controls.append(field, h("div", { class: "dialog-options" }, this.submitButton(field), cancel));
        return controls;
      }
    }
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
        return h("div", { class: "dialog-outcome answered" }, icon("check"), h("span", { class: "dialog-answer" }, visibleText(item.answer ?? "")), h("span", { class: "dialog-via" }, `answered${where}`));
      case "timedOut":
        return h("div", { class: "dialog-outcome timed-out" }, icon("watch"), "Timed out");
      default:
        return h("div", { class: "dialog-outcome cancelled" }, icon("close"), `Cancelled${where}`);
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
    for (const control of Array.from(this.element.querySelectorAll("vscode-button"))) control.setAttribute("disabled", "");
  }
}

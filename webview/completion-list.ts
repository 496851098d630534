import { h, icon } from "./dom";

/** One row of the completion list: a slash command or an `@` mention. */
export interface CompletionItem {
  label: string;
  description: string;
  icon?: string;
  data: Record<string, string>;
  accept(): void;
}

/**
 * The completion list of the message box (slash commands, `@` mentions): its rows, the selected
 * one (the box names it in aria-activedescendant), a row accepted by a click.
 */
export class CompletionList {
  private items: CompletionItem[] = [];
  private selected = 0;

  constructor(
    private readonly element: HTMLElement,
    /** The message box. */
    private readonly owner: HTMLElement,
  ) {}

  get open(): boolean {
    return this.items.length > 0;
  }

  get selectedItem(): CompletionItem | undefined {
    return this.items[this.selected];
  }

  /** Shows these rows; the selection stays where it was, within them. */
  show(items: CompletionItem[]): void {
    this.items = items;
    this.selected = Math.min(this.selected, Math.max(0, this.items.length - 1));
    this.render();
  }

  /** The next (1) or previous (-1) row, round. */
  move(step: 1 | -1): void {
    this.selected = (this.selected + step + this.items.length) % this.items.length;
    this.render();
  }

  close(): void {
    this.items = [];
    this.selected = 0;
    this.render();
  }

  private render(): void {
    this.element.hidden = this.items.length === 0;
    this.element.replaceChildren(
      ...this.items.map((item, index) => {
        const data = Object.fromEntries(Object.entries(item.data).map(([k, v]) => [`data-${k}`, v]));
        const option = h(
          "div",
          { class: "completion", role: "option", id: `completion-${index}`, "aria-selected": index === this.selected ? "true" : "false", ...data },
          item.icon ? icon(item.icon) : null,
          h("span", { class: "completion-name" }, item.label),
          h("span", { class: "completion-description" }, item.description),
        );
        option.addEventListener("mousedown", (event) => {
          event.preventDefault();
          item.accept();
        });
        return option;
      }),
    );
    if (this.items.length > 0) this.owner.setAttribute("aria-activedescendant", `completion-${this.selected}`);
    else this.owner.removeAttribute("aria-activedescendant");
  }
}

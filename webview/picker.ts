import { h } from "./dom";

export interface PickerOption {
  value: string;
  label: string;
  description?: string;
}

/**
 * A drop-down list under a header button (model, thinking level, the sessions menu): a listbox
 * (or a menu of actions) that takes focus; Up/Down/Home/End move, Enter or Space picks, Escape
 * or Tab closes and focus returns to the button.
 */
export class Picker {
  private list: HTMLElement | undefined;
  private anchor: HTMLElement | undefined;
  private options: PickerOption[] = [];
  private active = 0;
  private pick: (value: string) => void = () => undefined;

  constructor(private readonly host: HTMLElement) {}

  get isOpen(): boolean {
    return this.list !== undefined;
  }

  open(anchor: HTMLElement, label: string, options: PickerOption[], current: string | undefined, pick: (value: string) => void, role: "listbox" | "menu" = "listbox"): void {
    this.close(false);
    this.anchor = anchor;
    this.options = options;
    this.pick = pick;
    this.active = Math.max(0, options.findIndex((o) => o.value === current));
    const list = h("div", { class: "picker", role, "aria-label": label, tabindex: "-1", "data-picker": anchor.id });
    options.forEach((option, index) => {
      const row = h(
        "div",
        role === "menu"
          ? { class: "picker-option", role: "menuitem", id: `picker-option-${index}`, "data-value": option.value }
          : { class: "picker-option", role: "option", id: `picker-option-${index}`, "data-value": option.value, "aria-selected": option.value === current ? "true" : "false" },
        h("span", { class: "picker-label" }, option.label),
        option.description ? h("span", { class: "picker-description" }, option.description) : null,
      );
      row.addEventListener("mousedown", (event) => event.preventDefault());
      row.addEventListener("click", () => this.choose(index));
      list.append(row);
    });
    if (options.length === 0) list.append(h("div", { class: "picker-empty" }, "Nothing to choose from"));
    list.addEventListener("keydown", (event) => this.keydown(event));
    list.addEventListener("focusout", (event) => {
      // Not when focus goes to the button: its click closes the list (rather than opening it again).
      const to = event.relatedTarget as Node | null;
      if (!list.contains(to) && to !== this.anchor) this.close(false);
    });
    this.list = list;
    this.host.append(list);
    placeBeside(list, anchor, this.host);
    anchor.setAttribute("aria-expanded", "true");
    this.highlight();
    list.focus();
  }

  close(returnFocus = true): void {
    const list = this.list;
    if (!list) return;
    this.list = undefined;
    list.remove();
    this.anchor?.setAttribute("aria-expanded", "false");
    if (returnFocus) this.anchor?.focus();
  }

  private keydown(event: KeyboardEvent): void {
    const n = this.options.length;
    switch (event.key) {
      case "ArrowDown":
        this.active = n ? (this.active + 1) % n : 0;
        break;
      case "ArrowUp":
        this.active = n ? (this.active - 1 + n) % n : 0;
        break;
      case "Home":
        this.active = 0;
        break;
      case "End":
        this.active = Math.max(0, n - 1);
        break;
      case "Enter":
      case " ":
        this.choose(this.active);
        break;
      case "Escape":
        this.close();
        break;
      case "Tab":
        this.close();
        return;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
    this.highlight();
  }

  private choose(index: number): void {
    const option = this.options[index];
    const pick = this.pick;
    this.close();
    if (option) pick(option.value);
  }

  private highlight(): void {
    if (!this.list) return;
    for (const row of this.list.querySelectorAll<HTMLElement>(".picker-option")) row.classList.toggle("active", row.id === `picker-option-${this.active}`);
    if (this.options.length) {
      this.list.setAttribute("aria-activedescendant", `picker-option-${this.active}`);
      this.list.querySelector(`#picker-option-${this.active}`)?.scrollIntoView({ block: "nearest" });
    }
  }
}

/**
 * Under its button, or above it when the view has no room below (the mode pill under the message
 * box); lined up with the button's right edge in the header, its left edge on the left half.
 */
function placeBeside(list: HTMLElement, anchor: HTMLElement, host: HTMLElement): void {
  const box = anchor.getBoundingClientRect();
  const hostBox = host.getBoundingClientRect();
  const below = window.innerHeight - box.bottom;
  if (list.offsetHeight + 4 > below && box.top > below) list.style.bottom = `${hostBox.bottom - box.top + 2}px`;
  else list.style.top = `${box.bottom - hostBox.top + 2}px`;
  if (box.left + box.width / 2 < hostBox.left + hostBox.width / 2) list.style.left = `${Math.max(0, box.left - hostBox.left)}px`;
  else list.style.right = `${Math.max(0, hostBox.right - box.right)}px`;
}

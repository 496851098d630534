import { icon } from "./dom";

/**
 * The header's "Collapse all / Expand all tool cards" button. `apply` changes the cards; the
 * button then offers the opposite. `set` is also used by the pi.collapseToolCards command.
 */
export function toolCardsButton(button: HTMLElement, apply: (open: boolean) => void): { set(open: boolean): void } {
  let open = true;
  const set = (next: boolean) => {
    open = next;
    apply(open);
    render();
  };
  const render = () => {
    const label = open ? "Collapse all tool cards" : "Expand all tool cards";
    button.setAttribute("aria-label", label);
    button.title = label;
    button.dataset.open = String(open);
    button.replaceChildren(icon(open ? "collapse-all" : "expand-all"));
  };
  button.addEventListener("click", () => set(!open));
  render();
  return { set };
}

import type { FromWebview } from "../../shared/webview-protocol";
import type { ChatItem } from "../../shared/chat-items";
import { h, icon } from "../dom";

/** What item views need from the page. */
export interface ItemContext {
  post(message: FromWebview): void;
  /** The webview's clock minus the extension's, for dialog deadlines. */
  clockSkew(): number;
  /** The transcript's content changed size (keep following the end). */
  changed(): void;
}

/** One transcript entry on the page. `update` re-renders it from a new version of the item. */
export interface ItemView {
  readonly element: HTMLElement;
  update(item: ChatItem): void;
  /** Streamed text for block `block` (assistant items). */
  append?(block: number, blockType: "text" | "thinking", text: string): void;
  /** Live output (tool and bash items). */
  output?(text: string, replace: boolean): void;
  dispose?(): void;
}

export function article(item: ChatItem, label: string): HTMLElement {
  // Focusable for the transcript's arrow keys; transcript-focus.ts makes one entry the Tab stop.
  return h("article", { class: `item item-${item.kind}`, "data-key": item.key, "data-kind": item.kind, "aria-label": label, tabindex: -1 });
}

/** The small heading of an entry: an icon, a label and optional extra parts on the right. */
export function itemHeader(iconName: string, label: string, ...extra: (Node | string | null | undefined | false)[]): HTMLElement {
  return h("header", { class: "item-header" }, icon(iconName), h("span", { class: "item-label" }, label), h("span", { class: "spacer" }), ...extra);
}

/** Keeps which <details> were open across a re-render. */
/** Puts a rebuilt item in place of the old one, keeping the open state the user gave its sections. */
export function replaceItem(current: HTMLElement, next: HTMLElement): HTMLElement {
  keepOpenState(current, next);
  current.replaceWith(next);
  return next;
}

function keepOpenState(from: HTMLElement, to: HTMLElement): void {
  const before = Array.from(from.querySelectorAll("details"));
  const after = Array.from(to.querySelectorAll("details"));
  before.forEach((d, i) => {
    if (after[i] && d.dataset.toggled === "true") {
      after[i].open = d.open;
      after[i].dataset.toggled = "true";
    }
  });
}

/** A <details> whose open state is remembered once the user toggles it. */
export function details(summary: Node[], open: boolean, ...body: (Node | null | undefined | false)[]): HTMLDetailsElement {
  const element = h("details", { open }, h("summary", {}, ...summary), ...body);
  element.querySelector("summary")!.addEventListener("click", () => (element.dataset.toggled = "true"));
  return element;
}

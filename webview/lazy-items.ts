import type { ChatItem } from "../shared/chat-items";
import { h } from "./dom";

/** Items rendered at once by a reset, from the end; older ones start as placeholders. */
export const eagerItems = 40;
/** How far outside the visible part of the transcript (px) a placeholder is rendered. */
const margin = 1500;

/** A guess at an item's height before it is rendered, from its kind and the length of its text. */
export function estimateHeight(item: ChatItem, width: number): number {
  const charsPerLine = Math.max(20, Math.floor(width / 7));
  const lines = (text: string) => text.split("\n").reduce((n, line) => n + Math.max(1, Math.ceil(line.length / charsPerLine)), 0);
  switch (item.kind) {
    case "user":
      return 30 + 18 * lines(item.text);
    case "assistant":
      return 24 + 18 * lines(item.blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n\n"));
    case "tool":
      return item.name === "bash" || item.name === "edit" || item.name === "write" ? 120 : 28;
    case "bash":
      return 60 + 16 * Math.min(15, lines(item.output));
    default:
      return 40;
  }
}

/**
 * Placeholders for items far above what is shown: a box of the estimated height, replaced by
 * the real view when it scrolls within `margin` of the visible part.
 *
 * A history part (a batch of older entries, transcript-entries.ts) is observed as one box;
 * its placeholders are observed one by one only while the part is near. The browser checks every
 * observed element against the view in each frame of a scroll: 20,000 placeholders observed each
 * cost a 300 px chat 27–34 ms per frame in a plain chromium page, against 17–18 ms (the display's
 * own 16.7) this way.
 */
export class LazyItems {
  private readonly items = new Map<Element, ChatItem>();
  private readonly byKey = new Map<string, HTMLElement>();
  /** Placeholders (and those of parts near the view) to render when near. */
  private readonly observer: IntersectionObserver;
  /** History parts: when one comes near, its placeholders are observed; when it leaves, no longer. */
  private readonly parts: IntersectionObserver;

  constructor(
    root: HTMLElement,
    private readonly render: (item: ChatItem, placeholder: HTMLElement) => HTMLElement,
  ) {
    const options = { root, rootMargin: `${margin}px 0px` };
    this.observer = new IntersectionObserver((entries) => this.near(entries.filter((e) => e.isIntersecting).map((e) => e.target as HTMLElement)), options);
    this.parts = new IntersectionObserver((entries) => {
      for (const entry of entries) for (const placeholder of this.placeholdersIn(entry.target)) {
        if (entry.isIntersecting) this.observer.observe(placeholder);
        else this.observer.unobserve(placeholder);
      }
    }, options);
  }

  get size(): number {
    return this.items.size;
  }

  /** `inPart`: the placeholder goes into a history part given to observePart, which observes it while near. */
  placeholder(item: ChatItem, width: number, inPart = false): HTMLElement {
    const element = h("div", { class: "item-placeholder", "data-key": item.key, "aria-hidden": "true" });
    element.style.height = `${estimateHeight(item, width)}px`;
    this.items.set(element, item);
    this.byKey.set(item.key, element);
    if (!inPart) this.observer.observe(element);
    return element;
  }

  /** A history part of placeholders (made with `inPart`): they are rendered as it comes near. */
  observePart(part: HTMLElement): void {
    this.parts.observe(part);
  }

  /** The placeholder of an item not rendered yet. */
  placeholderFor(key: string): HTMLElement | undefined {
    return this.byKey.get(key);
  }

  /** The item a placeholder stands for. */
  itemOf(placeholder: Element): ChatItem | undefined {
    return this.items.get(placeholder);
  }

  /** Forget a placeholder (its item was removed, replaced or rendered). */
  drop(placeholder: Element): void {
    const key = this.items.get(placeholder)?.key;
    if (key !== undefined && this.byKey.get(key) === placeholder) this.byKey.delete(key);
    this.items.delete(placeholder);
    this.observer.unobserve(placeholder);
  }

  clear(): void {
    this.items.clear();
    this.byKey.clear();
    this.observer.disconnect();
    this.parts.disconnect();
  }

  /** Renders every placeholder (e.g. before searching the whole transcript). */
  renderAll(): void {
    this.near([...this.items.keys()] as HTMLElement[]);
  }

  private *placeholdersIn(part: Element): Iterable<HTMLElement> {
    for (const child of Array.from(part.children)) if (child instanceof HTMLElement && this.items.has(child)) yield child;
  }

  // The browser's scroll anchoring (overflow-anchor) keeps what is shown in place when the
  // rendered entries above it differ from their estimates, without stopping a scroll under way.
  private near(placeholders: HTMLElement[]): void {
    for (const p of placeholders) {
      const item = this.items.get(p);
      if (!item || !p.isConnected) continue;
      this.drop(p);
      this.render(item, p);
    }
  }
}

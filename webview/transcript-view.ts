import type { FromWebview } from "../shared/webview-protocol";
import type { ChatItem } from "../shared/chat-items";
import { FollowEnd } from "./follow-end";
import { flushFrames } from "./frames";
import { h } from "./dom";
import { createView, sameKind, type ItemContext, type ItemView } from "./items";
import { eagerItems, LazyItems } from "./lazy-items";
import { historyPartClass } from "./transcript-entries";

/** The gap between a history part's entries (px), as style.css's `.history-part` sets it. */
const partGap = 10;
import { TranscriptFocus } from "./transcript-focus";

/**
 * The list of transcript entries. Each entry is a view keyed like its item; upserts replace one
 * view, streamed text goes to one block. Follows the end while the user is at the end (follow-end.ts). A reset
 * renders only the last entries; older ones are placeholders until scrolled near (lazy-items.ts),
 * so opening a long session costs about the same as a short one.
 */
export class TranscriptView {
  private readonly views = new Map<string, ItemView>();
  private readonly follow: FollowEnd;
  private clockSkewMs = 0;
  private readonly ctx: ItemContext;
  private readonly lazy: LazyItems;
  /** Set by collapse all / expand all, for tool cards rendered later. */
  private toolCardsOpen: boolean | undefined;
  /**
   * The transcript's width, for placeholders' estimated heights: kept from its size changes, not
   * read when a batch of history arrives (a read then is a layout of the whole conversation).
   */
  private width = 0;

  constructor(
    readonly element: HTMLElement,
    private readonly post: (message: FromWebview) => void,
    onScroll: (scrollTop: number, atEnd: boolean) => void,
    /** "Jump to latest", shown while the user is scrolled away from the end. */
    jumpToLatest?: HTMLElement,
  ) {
    this.follow = new FollowEnd(element, jumpToLatest, onScroll);
    new ResizeObserver((entries) => (this.width = entries.at(-1)?.contentRect.width ?? this.width)).observe(element);
    this.ctx = { post, clockSkew: () => this.clockSkewMs, changed: () => this.keepAtEnd() };
    this.lazy = new LazyItems(element, (item, placeholder) => {
      const view = this.createView(item);
      placeholder.replaceWith(view.element);
      return view.element;
    });
    new TranscriptFocus(element, (placeholder) => (placeholder.dataset.key === undefined ? undefined : this.render(placeholder.dataset.key)?.element));
    element.addEventListener("click", (event) => this.click(event));
    element.addEventListener("auxclick", (event) => this.click(event));
  }

  /** The extension's clock at the time of a message, to place dialog deadlines. */
  setClock(extensionNow: number): void {
    this.clockSkewMs = Date.now() - extensionNow;
  }

  reset(items: ChatItem[]): void {
    flushFrames();
    for (const view of this.views.values()) view.dispose?.();
    this.views.clear();
    this.lazy.clear();
    const width = (this.width ||= this.element.clientWidth) || 300;
    const firstEager = Math.max(0, items.length - eagerItems);
    const elements = items.map((item, index) => (index < firstEager ? this.lazy.placeholder(item, width) : this.createView(item).element));
    this.element.replaceChildren(...elements);
    this.follow.toEnd(); // another conversation (a rewind, a session switch): its end
  }

  /**
   * Older entries of this conversation (a long one comes in parts): before those shown, as
   * placeholders rendered when scrolled near, in an element of their own (transcript-entries.ts).
   */
  prependHistory(items: ChatItem[]): void {
    if (items.length === 0) return;
    const width = this.width || 300;
    const part = h("div", { class: historyPartClass });
    const placeholders = items.map((item) => this.lazy.placeholder(item, width, true));
    part.append(...placeholders);
    // The part's size while the browser skips it (content-visibility: auto, style.css): its
    // placeholders' heights and the gaps between them; once shown, the size it had.
    const height = placeholders.reduce((sum, placeholder) => sum + parseFloat(placeholder.style.height), (placeholders.length - 1) * partGap);
    part.style.containIntrinsicSize = `auto ${Math.round(height)}px`;
    // The reader stays where they are (on what they read, the part above them): the browser's scroll
    // anchoring does that, except at the very top (scrollTop 0), so a reader there is moved 1 px down first.
    if (this.element.scrollTop === 0) this.element.scrollTop = 1;
    this.element.prepend(part);
    this.lazy.observePart(part);
    this.keepAtEnd();
  }

  /** `after`: where a new item goes (after that item's entry; at the end when it is not shown). */
  upsert(item: ChatItem, after?: string): void {
    const view = this.views.get(item.key) ?? this.render(item.key);
    if (view && sameKind(view, item)) {
      flushFrames();
      view.update(item);
    } else {
      const next = this.createView(item);
      if (view) {
        view.dispose?.();
        view.element.replaceWith(next.element);
      } else {
        const anchor = after === undefined ? undefined : (this.views.get(after)?.element ?? this.placeholderOf(after));
        if (anchor) anchor.after(next.element);
        else this.element.append(next.element);
      }
    }
    this.keepAtEnd();
  }

  remove(key: string): void {
    const placeholder = this.placeholderOf(key);
    if (placeholder) {
      this.lazy.drop(placeholder);
      removeEntry(placeholder);
    }
    const view = this.views.get(key);
    if (!view) return;
    view.dispose?.();
    removeEntry(view.element);
    this.views.delete(key);
  }

  append(key: string, block: number, blockType: "text" | "thinking", text: string): void {
    (this.views.get(key) ?? this.render(key))?.append?.(block, blockType, text);
  }

  output(key: string, text: string, replace: boolean): void {
    (this.views.get(key) ?? this.render(key))?.output?.(text, replace);
  }

  /** Renders every entry still a placeholder (find searches the text of all of them). */
  renderAll(): void {
    if (this.lazy.size > 0) this.lazy.renderAll();
  }

  private createView(item: ChatItem): ItemView {
    const view = createView(item, this.ctx);
    this.views.set(item.key, view);
    if (this.toolCardsOpen !== undefined && item.kind === "tool") {
      const section = view.element.querySelector<HTMLDetailsElement>(":scope > details");
      if (section) {
        section.open = this.toolCardsOpen;
        section.dataset.toggled = "true";
      }
    }
    return view;
  }

  /** The view of an entry that is still a placeholder, rendered now. */
  private render(key: string): ItemView | undefined {
    const placeholder = this.placeholderOf(key);
    const item = placeholder && this.lazy.itemOf(placeholder);
    if (!placeholder || !item) return undefined;
    this.lazy.drop(placeholder);
    const view = this.createView(item);
    placeholder.replaceWith(view.element);
    return view;
  }

  private placeholderOf(key: string): HTMLElement | undefined {
    return this.lazy.placeholderFor(key);
  }

  /** Collapse all / expand all: every tool card's section, kept so when a card is re-rendered. */
  setToolCardsOpen(open: boolean): void {
    this.toolCardsOpen = open;
    for (const section of this.element.querySelectorAll<HTMLDetailsElement>(".item-tool > details")) {
      section.open = open;
      section.dataset.toggled = "true";
    }
    this.keepAtEnd();
  }

  /** Restores a scroll position saved before a reload. */
  restoreScroll(scrollTop: number, atEnd: boolean): void {
    this.follow.restore(scrollTop, atEnd);
  }

  /** To the end, following again (the user sent a message). */
  toEnd(): void {
    this.follow.toEnd();
  }

  private keepAtEnd(): void {
    this.follow.keep();
  }

  /** Links never navigate the webview: the extension opens them (after asking). */
  private click(event: MouseEvent): void {
    const target = event.target as Element | null;
    const copy = target?.closest<HTMLElement>("[data-action='copy-code']");
    if (copy) {
      const code = copy.closest(".code-block")?.querySelector("code")?.textContent ?? "";
      this.post({ type: "copy", text: code });
      return;
    }
    const wrap = target?.closest<HTMLElement>("[data-action='wrap-code']");
    if (wrap) {
      const wrapped = wrap.closest(".code-block")?.classList.toggle("wrapped") ?? false;
      wrap.setAttribute("aria-pressed", String(wrapped));
      return;
    }
    const link = target?.closest<HTMLAnchorElement>("a[href]");
    if (!link) return;
    // VS Code's own handler (on the window) would open the link at once: keep it from seeing this.
    event.preventDefault();
    event.stopPropagation();
    if (!link.dataset.href) return;
    if (event.type === "click" || event.button === 1) this.post({ type: "openLink", href: link.dataset.href ?? "" });
  }
}

/** Removes an entry, and the history part it was the last of. */
function removeEntry(entry: HTMLElement): void {
  const parent = entry.parentElement;
  entry.remove();
  if (parent?.classList.contains(historyPartClass) && parent.childElementCount === 0) parent.remove();
}

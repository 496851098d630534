import type { ChatItem, FromWebview } from "../shared/webview-protocol";
import { flushFrames } from "./frames";
import { createView, sameKind, type ItemContext, type ItemView } from "./items";

/** How close to the end (px) counts as "at the end": then new content keeps it in view. */
const followSlack = 40;

/**
 * The list of transcript entries. Each entry is a view keyed like its item; upserts replace one
 * view, streamed text goes to one block. Follows the end while the user is at the end.
 */
export class TranscriptView {
  private readonly views = new Map<string, ItemView>();
  private follow = true;
  private clockSkewMs = 0;
  private readonly ctx: ItemContext;

  constructor(
    readonly element: HTMLElement,
    private readonly post: (message: FromWebview) => void,
    private readonly onScroll: (scrollTop: number, atEnd: boolean) => void,
  ) {
    this.ctx = { post, clockSkew: () => this.clockSkewMs, changed: () => this.keepAtEnd() };
    element.addEventListener("scroll", () => {
      this.follow = element.scrollHeight - element.scrollTop - element.clientHeight <= followSlack;
      this.onScroll(element.scrollTop, this.follow);
    });
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
    const elements = items.map((item) => {
      const view = createView(item, this.ctx);
      this.views.set(item.key, view);
      return view.element;
    });
    this.element.replaceChildren(...elements);
    this.keepAtEnd();
  }

  upsert(item: ChatItem): void {
    const view = this.views.get(item.key);
    if (view && sameKind(view, item)) {
      flushFrames();
      view.update(item);
    } else {
      const next = createView(item, this.ctx);
      if (view) {
        view.dispose?.();
        view.element.replaceWith(next.element);
      } else this.element.append(next.element);
      this.views.set(item.key, next);
    }
    this.keepAtEnd();
  }

  remove(key: string): void {
    const view = this.views.get(key);
    if (!view) return;
    view.dispose?.();
    view.element.remove();
    this.views.delete(key);
  }

  append(key: string, block: number, blockType: "text" | "thinking", text: string): void {
    this.views.get(key)?.append?.(block, blockType, text);
  }

  output(key: string, text: string, replace: boolean): void {
    this.views.get(key)?.output?.(text, replace);
  }

  /** Restores a scroll position saved before a reload. */
  restoreScroll(scrollTop: number, atEnd: boolean): void {
    this.follow = atEnd;
    if (atEnd) this.keepAtEnd();
    else this.element.scrollTop = scrollTop;
  }

  private keepAtEnd(): void {
    if (this.follow) this.element.scrollTop = this.element.scrollHeight;
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
    const link = target?.closest<HTMLAnchorElement>("a[href]");
    if (!link) return;
    // VS Code's own handler (on the window) would open the link at once: keep it from seeing this.
    event.preventDefault();
    event.stopPropagation();
    if (!link.dataset.href) return;
    if (event.type === "click" || event.button === 1) this.post({ type: "openLink", href: link.dataset.href ?? "" });
  }
}

import { h, iconButton } from "./dom";
import { findAll, locate, step } from "./find-text";
import { entrySelector } from "./transcript-entries";

const highlightAll = "pi-find";
const highlightCurrent = "pi-find-current";
/** Text that is chrome, not conversation: labels, language tags, icons, buttons. */
const skipped = ".item-header, .code-bar, button, [aria-hidden='true']";

/**
 * Find in the conversation (Ctrl/Cmd+F): an input, "n of m", previous/next, Escape closes.
 * Matches are painted with CSS custom highlights over Ranges, so the transcript's DOM is never
 * changed and nothing the user types becomes markup. Follows the transcript as it changes.
 */
export class FindBar {
  private readonly input: HTMLInputElement;
  private readonly count: HTMLElement;
  private ranges: Range[] = [];
  private index = -1;
  private returnFocus: HTMLElement | null = null;
  private refreshQueued = false;

  constructor(
    private readonly bar: HTMLElement,
    private readonly transcript: HTMLElement,
    /** Renders entries that are still placeholders, so that their text can be searched. */
    private readonly renderAll: () => void,
  ) {
    this.input = h("input", { type: "text", class: "find-input", "aria-label": "Find in the conversation", placeholder: "Find", spellcheck: "false" });
    this.count = h("span", { class: "find-count", role: "status", "aria-live": "polite" }, "");
    const previous = iconButton("arrow-up", "Previous match (Shift+Enter)", "find-previous");
    const next = iconButton("arrow-down", "Next match (Enter)", "find-next");
    const close = iconButton("close", "Close (Escape)", "find-close");
    previous.addEventListener("click", () => this.move(-1));
    next.addEventListener("click", () => this.move(1));
    close.addEventListener("click", () => this.close());
    bar.replaceChildren(this.input, this.count, previous, next, close);
    bar.hidden = true;
    this.input.addEventListener("input", () => this.search(true));
    bar.addEventListener("keydown", (event) => this.keydown(event));
    document.addEventListener("keydown", (event) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "f") {
        event.preventDefault();
        event.stopPropagation();
        this.open();
      }
    }, true);
    new MutationObserver(() => this.transcriptChanged()).observe(transcript, { subtree: true, childList: true, characterData: true });
  }

  get isOpen(): boolean {
    return !this.bar.hidden;
  }

  open(): void {
    if (!this.isOpen) {
      const active = document.activeElement;
      this.returnFocus = active instanceof HTMLElement && !this.bar.contains(active) ? active : null;
      this.bar.hidden = false;
      this.search(true);
    }
    this.input.focus();
    this.input.select();
  }

  close(): void {
    this.bar.hidden = true;
    this.ranges = [];
    this.index = -1;
    this.paint();
    (this.returnFocus?.isConnected ? this.returnFocus : this.transcript).focus();
    this.returnFocus = null;
  }

  private keydown(event: KeyboardEvent): void {
    if (event.key === "Escape") this.close();
    else if ((event.key === "Enter" && event.target === this.input) || event.key === "F3") this.move(event.shiftKey ? -1 : 1);
    else return;
    event.preventDefault();
    event.stopPropagation();
  }

  private move(delta: 1 | -1): void {
    if (this.ranges.length === 0) return;
    this.index = step(this.index, this.ranges.length, delta);
    this.paint();
    this.reveal();
  }

  /** Finds the query again; `fromStart` (a new query) shows the first match, else the same index. */
  private search(fromStart: boolean): void {
    if (this.isOpen && this.input.value) this.renderAll();
    this.ranges = this.isOpen ? matchRanges(this.transcript, this.input.value) : [];
    this.index = this.ranges.length === 0 ? -1 : fromStart ? 0 : Math.min(Math.max(this.index, 0), this.ranges.length - 1);
    this.paint();
    if (fromStart) this.reveal();
  }

  private transcriptChanged(): void {
    if (!this.isOpen || !this.input.value || this.refreshQueued) return;
    this.refreshQueued = true;
    requestAnimationFrame(() => {
      this.refreshQueued = false;
      this.search(false);
    });
  }

  private paint(): void {
    const n = this.ranges.length;
    this.count.textContent = !this.input.value ? "" : n === 0 ? "No results" : `${this.index + 1} of ${n}`;
    this.bar.dataset.results = String(n);
    const registry = typeof CSS !== "undefined" && "highlights" in CSS ? CSS.highlights : undefined;
    if (!registry) return;
    registry.set(highlightAll, new Highlight(...this.ranges));
    const current = this.ranges[this.index];
    registry.set(highlightCurrent, current ? new Highlight(current) : new Highlight());
  }

  /** Opens the folded sections around the current match and scrolls it to the middle. */
  private reveal(): void {
    const range = this.ranges[this.index];
    if (!range) return;
    const at = range.startContainer.parentElement;
    for (let d = at?.closest("details"); d; d = d.parentElement?.closest("details")) {
      if (!d.open) {
        d.open = true;
        d.dataset.toggled = "true";
      }
    }
    at?.closest<HTMLElement>(".item")?.setAttribute("data-find-current", "");
    for (const other of this.transcript.querySelectorAll<HTMLElement>("[data-find-current]")) if (!other.contains(at)) other.removeAttribute("data-find-current");
    const box = range.getBoundingClientRect();
    const view = this.transcript.getBoundingClientRect();
    this.transcript.scrollTop += box.top - view.top - view.height / 2 + box.height / 2;
  }
}

/** Ranges over every match of `query` in the transcript's text, item by item. */
function matchRanges(transcript: HTMLElement, query: string): Range[] {
  if (!query) return [];
  const ranges: Range[] = [];
  for (const item of transcript.querySelectorAll(entrySelector(".item"))) {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node.parentElement?.closest(skipped) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
    const lengths = nodes.map((n) => n.data.length);
    for (const match of findAll(nodes.map((n) => n.data).join(""), query)) {
      const start = locate(lengths, match.start, false);
      const end = locate(lengths, match.end, true);
      const range = document.createRange();
      range.setStart(nodes[start.piece], start.offset);
      range.setEnd(nodes[end.piece], end.offset);
      ranges.push(range);
    }
  }
  return ranges;
}

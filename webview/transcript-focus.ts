import { transcriptAction } from "./keys";
import { entrySelector, firstEntryOf, isEntryOf, lastEntryOf, neighbourEntry } from "./transcript-entries";

/** What can take the focus inside an entry, with the scrollers Chrome would make tabbable. */
const controls = "a[href], button, summary, input, select, textarea, [tabindex], vscode-button, vscode-textfield, vscode-textarea, pre, table, .diff";
/** The tabindex a control had before it was taken out of the Tab order ("" for none). */
const savedTab = "data-tab";

/**
 * The transcript as one Tab stop (roving tabindex): one entry has tabindex 0, the others -1,
 * and the controls inside entries are out of the Tab order, so Tab passes the transcript at once.
 * Up/Down/Home/End move between entries (rendering lazy placeholders on the way), Enter or F2
 * puts the controls of the focused entry back in the Tab order and focuses the first of them,
 * Escape returns to the entry. The tab stop is the entry last focused, or the last entry while
 * the user has not moved off it. An open question card and a failed start's buttons keep their
 * controls in the Tab order: they wait for the user. Entries are rebuilt as they change: a MutationObserver applies all this
 * to new elements, and gives the focus back to an entry whose focused element was replaced.
 */
export class TranscriptFocus {
  private currentKey: string | undefined;
  private followLast = true;
  private tabStop: HTMLElement | undefined;
  /** The entry whose controls are in the Tab order. */
  private entered: HTMLElement | undefined;
  /** The key of the entry holding the focus, while the focus is in the transcript. */
  private focusedKey: string | undefined;

  constructor(
    private readonly transcript: HTMLElement,
    /** Renders a placeholder (lazy-items.ts) now; returns the entry that replaced it. */
    private readonly renderPlaceholder: (placeholder: HTMLElement) => HTMLElement | undefined,
  ) {
    new MutationObserver((records) => this.changed(records)).observe(transcript, { childList: true, subtree: true });
    transcript.addEventListener("keydown", (event) => this.keydown(event));
    document.addEventListener("focusin", (event) => this.focusin(event.target));
    transcript.addEventListener("focusout", (event) => this.focusout(event));
    this.syncTabStop();
  }

  private changed(records: MutationRecord[]): void {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof HTMLElement && node.isConnected) this.untabWithin(node);
    }
    this.syncTabStop();
    this.restoreLostFocus();
  }

  private keydown(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    const entry = this.entryOf(target);
    if (!entry) return;
    const action = transcriptAction(event, target === entry);
    if (!action) return;
    event.preventDefault();
    if (action === "enter") this.focusFirstControl(entry);
    else if (action === "exit") entry.focus();
    else {
      const next = this.neighbour(entry, action);
      if (next) this.focusEntry(next);
    }
  }

  private focusin(target: EventTarget | null): void {
    const entry = target instanceof HTMLElement ? this.entryOf(target) : undefined;
    if (this.entered && this.entered !== entry) this.exit();
    if (!entry) {
      this.focusedKey = undefined;
      return;
    }
    this.focusedKey = this.currentKey = entry.dataset.key;
    this.followLast = entry === this.lastEntry();
    if (target === entry) this.exit();
    else if (this.entered !== entry) this.enter(entry);
    this.syncTabStop();
  }

  /** The focus went nowhere: forget it, unless its element was removed (then it is given back). */
  private focusout(event: FocusEvent): void {
    if (event.relatedTarget) return;
    const target = event.target as HTMLElement;
    queueMicrotask(() => {
      if (target.isConnected && document.hasFocus()) this.focusedKey = undefined;
    });
  }

  /** The entry (an item of the transcript, not one nested in another) that `element` is or is inside. */
  private entryOf(element: HTMLElement): HTMLElement | undefined {
    const entry = element.closest<HTMLElement>(".item");
    return entry && isEntryOf(this.transcript, entry) ? entry : undefined;
  }

  private neighbour(entry: HTMLElement, action: "previous" | "next" | "first" | "last"): HTMLElement | undefined {
    const t = this.transcript;
    const next = action === "first" ? firstEntryOf(t) : action === "last" ? lastEntryOf(t) : neighbourEntry(entry, action === "next");
    if (!next) return undefined;
    return next.classList.contains("item-placeholder") ? this.renderPlaceholder(next) : next;
  }

  private focusEntry(entry: HTMLElement): void {
    entry.focus({ preventScroll: true });
    // A long entry shows from its start; a short one scrolls no more than needed.
    entry.scrollIntoView({ block: entry.offsetHeight > this.transcript.clientHeight ? "start" : "nearest" });
  }

  private focusFirstControl(entry: HTMLElement): void {
    this.enter(entry);
    for (const control of entry.querySelectorAll<HTMLElement>(controls)) {
      if (control.tabIndex < 0 || control.matches(":disabled, [disabled]") || !control.checkVisibility()) continue;
      control.focus();
      if (entry.contains(document.activeElement) && document.activeElement !== entry) return;
    }
  }

  private enter(entry: HTMLElement): void {
    this.entered = entry;
    for (const control of entry.querySelectorAll<HTMLElement>(`[${savedTab}]`)) {
      const tab = control.getAttribute(savedTab);
      control.removeAttribute(savedTab);
      if (tab) control.setAttribute("tabindex", tab);
      else control.removeAttribute("tabindex");
    }
  }

  private exit(): void {
    const entry = this.entered;
    this.entered = undefined;
    if (entry?.isConnected) this.untabWithin(entry);
  }

  /** Takes the controls in `root` (an entry or part of one) out of the Tab order. */
  private untabWithin(root: HTMLElement): void {
    const entry = this.entryOf(root);
    if (!entry || entry === this.entered || entry.matches(".item-dialog[data-state='open'], .item[data-awaits-user]")) return;
    const found = root.querySelectorAll<HTMLElement>(controls);
    if (root !== entry && root.matches(controls)) untab(root);
    for (const control of found) untab(control);
  }

  private lastEntry(): HTMLElement | undefined {
    for (let e = lastEntryOf(this.transcript); e; e = neighbourEntry(e, false)) if (e.classList.contains("item")) return e;
    return undefined;
  }

  private currentEntry(): HTMLElement | undefined {
    if (this.followLast || this.currentKey === undefined) return this.lastEntry();
    if (this.tabStop?.isConnected && this.tabStop.dataset.key === this.currentKey) return this.tabStop;
    const entry = this.transcript.querySelector<HTMLElement>(entrySelector(`.item[data-key="${CSS.escape(this.currentKey)}"]`));
    if (entry) return entry;
    this.followLast = true;
    return this.lastEntry();
  }

  private syncTabStop(): void {
    const entry = this.currentEntry();
    if (entry !== this.tabStop) {
      this.tabStop?.setAttribute("tabindex", "-1");
      entry?.setAttribute("tabindex", "0");
      this.tabStop = entry;
    }
    // An empty transcript is still one Tab stop.
    const tabIndex = entry ? -1 : 0;
    if (this.transcript.tabIndex !== tabIndex) this.transcript.tabIndex = tabIndex;
  }

  /** The focused element in an entry was replaced by a re-render (or removed): focus the entry. */
  private restoreLostFocus(): void {
    if (this.focusedKey === undefined) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const entry = this.transcript.querySelector<HTMLElement>(entrySelector(`.item[data-key="${CSS.escape(this.focusedKey)}"]`)) ?? this.tabStop;
    (entry ?? this.transcript).focus({ preventScroll: true });
  }
}

function untab(control: HTMLElement): void {
  if (control.hasAttribute(savedTab)) return;
  const tab = control.getAttribute("tabindex");
  if (tab !== null && Number(tab) < 0) return;
  // A custom element (vscode-button) may not have reflected its tabindex yet: it is 0.
  control.setAttribute(savedTab, tab ?? (control.localName.includes("-") ? "0" : ""));
  control.setAttribute("tabindex", "-1");
}

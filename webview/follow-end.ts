import { onNextFrame } from "./frames";

/** How close to the end (px) counts as "at the end": then new content keeps it in view. */
const followSlack = 40;

/**
 * Keeps a scrolling element at its end while the user has not scrolled away from it: after any
 * change of its content (streamed text, cards, lazily rendered entries) or of its size (the queue
 * or the box growing below it). Scrolls this class makes itself are told apart from the user's,
 * so content that grows between a scroll and its event never stops the following. While the user
 * is away from the end, `jump` (a "Jump to latest" button) is shown and takes them back.
 *
 * A change only asks for a frame: the scroll and the jump button are set once per frame, before
 * it paints. Each of them reads the layout, and in a 20,000-entry conversation a layout is
 * ~20 ms: read per change (each entry rendered as it scrolls near, each batch of history), they
 * made tasks of 60-190 ms while the user scrolled.
 */
export class FollowEnd {
  private following = true;
  /** The scrollTop this class set last (its own scroll events are not the user's). */
  private ownTop = -1;
  /**
   * A keep asked for and not done yet (it waits for the next frame). A scroll event meanwhile is
   * the content moving under a reader at the end (it grew, or the browser anchored it), not the
   * user leaving it: the end is kept in that frame.
   */
  private keepPending = false;
  /** Sizes that move the end: the element's, and its last entry's (a card whose buttons lay out after it was added grows with no mutation to see). */
  private readonly sizes = new ResizeObserver(() => this.keepNow());
  private readonly keepInFrame = () => this.keepNow();
  private lastEntry: Element | null = null;

  constructor(
    private readonly element: HTMLElement,
    private readonly jump: HTMLElement | undefined,
    private readonly onScroll: (scrollTop: number, atEnd: boolean) => void,
  ) {
    element.addEventListener("scroll", () => {
      const own = this.following && (this.keepPending || Math.abs(element.scrollTop - this.ownTop) < 1);
      if (!own) this.following = this.distance() <= followSlack;
      this.showJump();
      this.onScroll(element.scrollTop, this.following);
    });
    new MutationObserver(() => {
      this.watchLastEntry();
      this.keep();
    }).observe(element, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["open", "hidden", "class"] });
    this.sizes.observe(element);
    jump?.addEventListener("click", () => this.toEnd());
  }

  /** Scrolls to the end if following and shows or hides the jump button, before the next frame paints. */
  keep(): void {
    this.keepPending = true;
    onNextFrame(this.keepInFrame);
  }

  /** What `keep` does, now (a size change is seen once per frame already, after its layout). */
  private keepNow(): void {
    this.keepPending = false;
    if (this.following) {
      this.element.scrollTop = this.element.scrollHeight;
      this.ownTop = this.element.scrollTop;
    }
    this.showJump();
  }

  private watchLastEntry(): void {
    const last = this.element.lastElementChild;
    if (last === this.lastEntry) return;
    if (this.lastEntry) this.sizes.unobserve(this.lastEntry);
    if (last) this.sizes.observe(last);
    this.lastEntry = last;
  }

  /** Back to the end, following again (the jump button, a new transcript, the user's own message). */
  toEnd(): void {
    this.following = true;
    this.keepNow();
  }

  /** A scroll position saved before a reload. */
  restore(scrollTop: number, atEnd: boolean): void {
    if (atEnd) return this.toEnd();
    this.following = false;
    this.element.scrollTop = scrollTop;
    this.showJump();
  }

  private distance(): number {
    return this.element.scrollHeight - this.element.scrollTop - this.element.clientHeight;
  }

  /**
   * The button while the user is away from the end. Its row is kept while the conversation
   * overflows, shown or not, so that the button coming never takes lines from the conversation
   * (it did: a card's last lines went under the row the moment the user scrolled up).
   */
  private showJump(): void {
    if (!this.jump) return;
    const away = !this.following && this.distance() > followSlack;
    this.jump.hidden = !away;
    const row = this.jump.parentElement;
    if (row?.classList.contains("jump-row")) row.hidden = !away && this.element.scrollHeight <= this.element.clientHeight + 1;
  }
}

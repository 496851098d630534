import type { FromWebview } from "../shared/webview-protocol";
import { onNextFrame } from "./frames";

/** How near the top of the transcript (px) the next older entries are asked for: a few screens ahead of the reader. */
const nearTop = 3000;

/**
 * The older entries of a long conversation, asked for when they are needed (the extension sends
 * none unasked, extension/chat/history-parts.ts): the next batch when the user scrolls within
 * `nearTop` of the oldest entry the webview has, one ask at a time; all of them when find searches.
 * The transcript keeps the reader's place as each batch goes in above (transcript-view.ts).
 */
export class OlderHistory {
  /** Entries older than those the webview has. */
  private older = 0;
  private asked = false;
  private askedAll = false;
  private readonly checkInFrame = () => this.check();

  constructor(
    private readonly scroller: HTMLElement,
    private readonly post: (message: FromWebview) => void,
  ) {
    scroller.addEventListener("scroll", () => this.check(), { passive: true });
  }

  /** Another conversation: `older` entries before those it carries. */
  reset(older: number): void {
    this.older = older;
    this.asked = false;
    this.askedAll = false;
    onNextFrame(this.checkInFrame);
  }

  /** A batch went in: `older` are left before it. */
  arrived(older: number): void {
    this.older = older;
    this.asked = false;
    // Still near the top (a short batch, or the reader waiting there): the next one.
    onNextFrame(this.checkInFrame);
  }

  /** Find searches every entry: all the older ones, once. */
  askAll(): void {
    if (this.older === 0 || this.askedAll) return;
    this.askedAll = true;
    this.post({ type: "olderHistory", all: true });
  }

  private check(): void {
    if (this.older === 0 || this.asked || this.askedAll || this.scroller.scrollTop > nearTop) return;
    this.asked = true;
    this.post({ type: "olderHistory" });
  }
}

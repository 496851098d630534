import { h } from "./dom";
import { renderMarkdown } from "./markdown";
import { stableMarkdownCut, withoutOpenLink } from "./markdown-cut";

/**
 * Markdown that grows while it streams: the settled part (up to the last stable cut) is rendered
 * once, only the open tail is rendered again on each update, so a long reply costs the same per
 * frame as a short one. The finished message is rendered whole again (exact at the end).
 */
export class StreamingMarkdown {
  private settledUpTo = 0;
  private readonly settled = h("div", { class: "markdown-part" });
  private readonly tail = h("div", { class: "markdown-part" });

  constructor(element: HTMLElement) {
    element.replaceChildren(this.settled, this.tail);
  }

  update(text: string): void {
    const cut = stableMarkdownCut(text, this.settledUpTo);
    if (cut > this.settledUpTo) {
      this.settled.append(renderMarkdown(text.slice(this.settledUpTo, cut)));
      this.settledUpTo = cut;
    }
    this.tail.replaceChildren(renderMarkdown(withoutOpenLink(text.slice(this.settledUpTo))));
  }
}

import { h } from "./dom";
import { renderMarkdown } from "./markdown";
import { scanStreamingMarkdown, withoutOpenLink, type OpenFence } from "./markdown-cut";

/** A code block still being written at the end of the reply: its code grows in one text node. */
interface OpenCode {
  /** Where its opening fence line starts in the text. */
  start: number;
  /** The code shown so far. */
  shown: string;
  text: Text;
}

/**
 * Markdown that grows while it streams: the settled part (up to the last stable cut) is rendered
 * once, only the open tail is rendered again on each update, so a long reply costs the same per
 * frame as a short one. A code block still open at the end (a model writing a file into its
 * reply) is not rendered again either: its code is plain text that grows in place, so neither
 * highlighting nor the browser's text layout starts over at each update; it is highlighted once
 * it closes. The finished message is rendered whole again (exact at the end).
 */
export class StreamingMarkdown {
  private settledUpTo = 0;
  private readonly settled = h("div", { class: "markdown-part" });
  private readonly tail = h("div", { class: "markdown-part" });
  private open: OpenCode | undefined;

  constructor(element: HTMLElement) {
    element.replaceChildren(this.settled, this.tail);
  }

  update(text: string): void {
    const scan = scanStreamingMarkdown(text, this.settledUpTo);
    if (scan.cut > this.settledUpTo) {
      this.settled.append(renderMarkdown(text.slice(this.settledUpTo, scan.cut)));
      this.settledUpTo = scan.cut;
      this.open = undefined;
    }
    if (scan.open?.indent === 0 && this.growOpenCode(text, scan.open)) return;
    this.open = undefined;
    this.tail.replaceChildren(renderMarkdown(withoutOpenLink(text.slice(this.settledUpTo))));
  }

  /** Shows the tail ending in an open code block, growing the one shown when it is the same block; false when it cannot. */
  private growOpenCode(text: string, fence: OpenFence): boolean {
    const code = text.slice(fence.bodyStart);
    if (this.open?.start === fence.start && code.startsWith(this.open.shown)) {
      this.open.text.appendData(code.slice(this.open.shown.length));
      this.open.shown = code;
      return true;
    }
    const line = text.slice(fence.start, fence.bodyStart - 1).replace(/\r$/, "");
    const marker = /^(`+|~+)/.exec(line)?.[1];
    if (!marker) return false;
    // The block as the renderer makes it (language bar, copy and wrap buttons), empty, then its code as text.
    const block = renderMarkdown(`${line}\n${marker}\n`);
    const element = block.querySelector("div.code-block code");
    if (!element) return false;
    const node = document.createTextNode(code);
    element.replaceChildren(node);
    const before = text.slice(this.settledUpTo, fence.start);
    this.tail.replaceChildren(...(before ? [renderMarkdown(before)] : []), block);
    this.open = { start: fence.start, shown: code, text: node };
    return true;
  }
}

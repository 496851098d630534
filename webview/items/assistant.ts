import type { AssistantBlock, ChatItemOf } from "../../shared/chat-items";
import { h, icon, iconButton } from "../dom";
import { onNextFrame } from "../frames";
import { renderMarkdown } from "../markdown";
import { StreamingMarkdown } from "../markdown-stream";
import { article, details, itemHeader, replaceItem, type ItemContext, type ItemView } from "./common";

interface Block {
  type: AssistantBlock["type"];
  text: string;
  element: HTMLElement;
  render: () => void;
}

/**
 * An assistant message: markdown text blocks and collapsible thinking. While it streams, an
 * appended delta re-renders only its own block, at most once per animation frame.
 */
export class AssistantView implements ItemView {
  element: HTMLElement;
  private blocks: Block[] = [];
  private body!: HTMLElement;

  constructor(
    private item: ChatItemOf<"assistant">,
    private readonly ctx: ItemContext,
  ) {
    this.element = this.build();
  }

  update(item: ChatItemOf<"assistant">): void {
    this.item = item;
    this.element = replaceItem(this.element, this.build());
  }

  append(index: number, type: AssistantBlock["type"], text: string): void {
    while (this.blocks.length <= index) this.addBlock(type, "");
    let block = this.blocks[index];
    if (block.type !== type) {
      const replacement = this.makeBlock(type, "");
      block.element.replaceWith(replacement.element);
      this.blocks[index] = block = replacement;
    }
    block.text += text;
    this.item.blocks[index] = { type, text: block.text };
    onNextFrame(block.render);
  }

  private build(): HTMLElement {
    const item = this.item;
    const copy = iconButton("copy", "Copy message as markdown", "copy-message");
    copy.addEventListener("click", () => this.ctx.post({ type: "copy", text: this.markdown() }));
    const element = article(item, "Pi's reply");
    if (item.streaming) {
      element.dataset.streaming = "true";
      element.setAttribute("aria-busy", "true");
    }
    const hasText = item.blocks.some((b) => b.type === "text" && b.text.trim() !== "");
    element.append(itemHeader("sparkle", "Pi", item.streaming || !hasText ? null : copy));
    this.body = h("div", { class: "blocks" });
    this.blocks = [];
    element.append(this.body);
    for (const block of item.blocks) this.addBlock(block.type, block.text, true);
    if (item.error) {
      element.append(h("div", { class: "assistant-error", role: "alert" }, icon("error"), h("span", { class: "error-text" }, item.error)));
    } else if (item.aborted) {
      element.append(h("div", { class: "assistant-aborted" }, icon("debug-stop"), "Aborted"));
    }
    return element;
  }

  private addBlock(type: AssistantBlock["type"], text: string, now = false): void {
    const block = this.makeBlock(type, text);
    this.blocks.push(block);
    this.body.append(block.element);
    if (now) block.render();
  }

  private makeBlock(type: AssistantBlock["type"], text: string): Block {
    if (type === "thinking") {
      const content = h("div", { class: "thinking-text" });
      const label = h("span", { class: "thinking-label" }, this.item.streaming ? "Thinking…" : "Thinking");
      const element = details([icon("lightbulb"), label], false, content);
      element.classList.add("thinking");
      const block: Block = { type, text, element, render: () => {
        content.textContent = block.text;
        element.hidden = block.text.trim() === "";
        this.ctx.changed();
      } };
      return block;
    }
    const element = h("div", { class: "text markdown" });
    const streaming = this.item.streaming ? new StreamingMarkdown(element) : undefined;
    const block: Block = { type, text, element, render: () => {
      if (streaming) streaming.update(block.text);
      else element.replaceChildren(renderMarkdown(block.text));
      this.ctx.changed();
    } };
    return block;
  }

  private markdown(): string {
    return this.item.blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n\n");
  }
}

import DOMPurify from "dompurify";
import { h, iconButton } from "./dom";
import { markdownToHtml } from "./markdown-html";

const allowedTags = [
  "a", "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li",
  "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "span", "div",
];
const allowedAttributes = ["href", "title", "class", "start", "data-lang"];

/** The DOM of an assistant message's markdown, sanitized: no scripts, handlers, styles or remote loads. */
export function renderMarkdown(text: string): DocumentFragment {
  const fragment = DOMPurify.sanitize(markdownToHtml(text), {
    ALLOWED_TAGS: allowedTags,
    ALLOWED_ATTR: allowedAttributes,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#|[^a-z]|[a-z0-9.+-]+(?:[^a-z0-9.+\-:]|$))/i,
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  for (const link of Array.from(fragment.querySelectorAll("a"))) {
    const href = link.getAttribute("href") ?? "";
    link.title = href;
    link.dataset.href = href;
  }
  for (const block of Array.from(fragment.querySelectorAll<HTMLElement>("div.code-block"))) decorateCodeBlock(block);
  return fragment;
}

/** A language label, a wrap toggle for long lines and a copy button above each code block. */
function decorateCodeBlock(block: HTMLElement): void {
  const language = block.dataset.lang ?? "";
  const wrap = iconButton("word-wrap", "Wrap long lines", "wrap-code", { "aria-pressed": "false" });
  const bar = h("div", { class: "code-bar" }, h("span", { class: "code-lang" }, language || "text"), wrap, iconButton("copy", "Copy code", "copy-code"));
  block.prepend(bar);
}

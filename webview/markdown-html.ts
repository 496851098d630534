import MarkdownIt from "markdown-it";
import { highlight } from "./highlight";

/**
 * Markdown to HTML for assistant messages. Raw HTML is off (it shows as text), links are limited
 * to http(s), mailto and relative targets, and images become links (the webview loads nothing
 * remote). The HTML is sanitized again by DOMPurify before it reaches the DOM (markdown.ts).
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

const allowedLink = /^(https?:|mailto:|#|\.{0,2}\/|[^:/?#]+(?:[/?#]|$))/i;
md.validateLink = (url: string): boolean => {
  const trimmed = url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return /^(https?|mailto):/i.test(trimmed);
  return allowedLink.test(trimmed);
};

md.renderer.rules.image = (tokens, index, _options, _env, self) => {
  const token = tokens[index];
  const src = String(token.attrGet("src") ?? "");
  const alt = self.renderInlineAsText(token.children ?? [], _options, _env) || src;
  return `<a href="${md.utils.escapeHtml(src)}" class="image-link">${md.utils.escapeHtml(`[image: ${alt}]`)}</a>`;
};

md.renderer.rules.fence = (tokens, index) => {
  const token = tokens[index];
  const language = token.info.trim().split(/\s+/)[0] ?? "";
  const code = token.content.replace(/\n$/, "");
  const highlighted = highlight(code, language);
  const escapedLanguage = md.utils.escapeHtml(language);
  const body = highlighted ?? md.utils.escapeHtml(code);
  const langClass = highlighted ? ` class="hljs language-${escapedLanguage.replace(/[^\w-]/g, "")}"` : "";
  return `<div class="code-block" data-lang="${escapedLanguage}"><pre><code${langClass}>${body}</code></pre></div>\n`;
};

export function markdownToHtml(text: string): string {
  return md.render(text);
}

import * as assert from "node:assert/strict";
import { xssCorpus } from "../test/fixtures/xss-corpus";
import { markdownToHtml } from "./markdown-html";

const allowedTags = new Set([
  "a", "p", "br", "hr", "em", "strong", "s", "code", "pre", "blockquote", "ul", "ol", "li",
  "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "span", "div",
]);
const allowedAttributes = new Set(["href", "title", "class", "data-lang", "start", "style"]);

/** Every tag markdown-it wrote (text `<` is escaped, so each `<` here starts a real tag). */
function tags(html: string): { name: string; attrs: [string, string][] }[] {
  return [...html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)].map((m) => ({
    name: m[1].toLowerCase(),
    attrs: [...m[2].matchAll(/([^\s=]+)="([^"]*)"/g)].map((a) => [a[1].toLowerCase(), a[2]] as [string, string]),
  }));
}

describe("markdown to HTML (webview)", () => {
  it("renders headings, lists, code blocks with a language, links and tables", () => {
    const html = markdownToHtml("# Title\n\n- one\n- two\n\n```ts\nconst x: number = 1;\n```\n\n[docs](https://example.com) and `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |");
    assert.match(html, /<h1>Title<\/h1>/);
    assert.match(html, /<li>one<\/li>/);
    assert.match(html, /<div class="code-block" data-lang="ts"><pre><code class="hljs language-ts"><span class="hljs-keyword">const<\/span>/);
    assert.match(html, /<a href="https:\/\/example.com">docs<\/a>/);
    assert.match(html, /<table>/);
  });

  it("shows raw HTML as text", () => {
    const html = markdownToHtml("Hello <b>bold</b> <script>alert(1)</script>");
    assert.match(html, /&lt;b&gt;bold&lt;\/b&gt; &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  it("turns images into links and keeps only http(s), mailto and relative links", () => {
    assert.match(markdownToHtml("![chart](https://example.com/c.png)"), /<a href="https:\/\/example.com\/c.png" class="image-link">\[image: chart\]<\/a>/);
    assert.doesNotMatch(markdownToHtml("[x](javascript:alert(1))"), /<a /);
    assert.doesNotMatch(markdownToHtml("[x](command:foo)"), /<a /);
    assert.match(markdownToHtml("[x](src/greet.ts#L3)"), /<a href="src\/greet.ts#L3">/);
    assert.match(markdownToHtml("<mailto:a@example.com>"), /<a href="mailto:a@example.com">/);
  });

  it("keeps a streamed, unfinished code fence as code", () => {
    assert.match(markdownToHtml("Look:\n\n```js\nlet a = '<img src=x onerror=1>"), /<pre><code class="hljs language-js">.*&lt;img src=x onerror=1&gt;/s);
  });

  it(`renders none of the ${xssCorpus.length} hostile payloads as active HTML`, () => {
    assert.ok(xssCorpus.length >= 100);
    for (const payload of xssCorpus) {
      // Whole, and cut in the middle as a stream would be.
      for (const text of [payload, payload.slice(0, Math.ceil(payload.length / 2))]) {
        const html = markdownToHtml(text);
        for (const tag of tags(html)) {
          assert.ok(allowedTags.has(tag.name), `<${tag.name}> from ${JSON.stringify(text)}: ${html}`);
          for (const [name, value] of tag.attrs) {
            assert.ok(allowedAttributes.has(name), `attribute ${name} from ${JSON.stringify(text)}: ${html}`);
            if (name === "href") assert.doesNotMatch(value.replace(/[\s\u0000-\u001f]/g, ""), /^(javascript|vbscript|data|file|command|vscode):/i, `${JSON.stringify(text)}: ${html}`);
            if (name === "style") assert.match(value, /^text-align:(left|right|center)$/, `${JSON.stringify(text)}: ${html}`);
          }
        }
        const unquoted = html.replace(/"[^"]*"/g, '""');
        assert.doesNotMatch(unquoted, /<[a-z]+[^>]*\son[a-z]+=/i, `a handler from ${JSON.stringify(text)}: ${html}`);
      }
    }
  });
});

import { strict as assert } from "node:assert";
import { stableMarkdownCut, withoutOpenLink } from "./markdown-cut";

describe("stableMarkdownCut", () => {
  it("cuts after the last blank line, never inside a code fence or the line being written", () => {
    const text = "# Title\n\nSome text.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n";
    assert.equal(stableMarkdownCut(text, 0), "# Title\n\nSome text.\n\n".length);
    const closed = `${text}\`\`\`\n\nAfter`;
    assert.equal(stableMarkdownCut(closed, 0), closed.length - "After".length);
    assert.equal(stableMarkdownCut("no blank line yet\nstill", 0), 0);
    assert.equal(stableMarkdownCut("a\n\n", 0), 3);
  });

  it("continues from an earlier cut, which is outside any fence", () => {
    const text = "one\n\ntwo\n\nthree";
    const first = stableMarkdownCut(text, 0);
    assert.equal(text.slice(first), "three");
    assert.equal(stableMarkdownCut(text, first), first);
    assert.equal(stableMarkdownCut(`${text}\n\nfour`, first), `${text}\n\n`.length);
  });
});

describe("withoutOpenLink", () => {
  it("shows a link whose URL or title is still streaming as its text", () => {
    assert.equal(withoutOpenLink("Read [the guide](https://exampl"), "Read the guide");
    assert.equal(withoutOpenLink("Read [the guide](https://example.com \"Its ti"), "Read the guide");
    assert.equal(withoutOpenLink("See ![a chart](img/ch"), "See a chart");
    assert.equal(withoutOpenLink("first line\nand [x]("), "first line\nand x");
  });

  it("leaves finished links, code and other lines alone", () => {
    for (const text of [
      "Read [the guide](https://example.com) now",
      "call `f[a](b` inline",
      "```md\n[not a link](http://exa",
      "[a](http://one.example)\nplain last line",
      "[a](b) then (c",
    ]) assert.equal(withoutOpenLink(text), text);
  });
});

import { strict as assert } from "node:assert";
import { scanStreamingMarkdown, withoutOpenLink } from "./markdown-cut";

describe("scanStreamingMarkdown: the stable cut", () => {
  it("cuts after the last blank line, never inside a code fence or the line being written", () => {
    const text = "# Title\n\nSome text.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n";
    assert.equal(scanStreamingMarkdown(text, 0).cut, "# Title\n\nSome text.\n\n".length);
    const closed = `${text}\`\`\`\n\nAfter`;
    assert.equal(scanStreamingMarkdown(closed, 0).cut, closed.length - "After".length);
    assert.equal(scanStreamingMarkdown("no blank line yet\nstill", 0).cut, 0);
    assert.equal(scanStreamingMarkdown("a\n\n", 0).cut, 3);
  });

  it("continues from an earlier cut, which is outside any fence", () => {
    const text = "one\n\ntwo\n\nthree";
    const first = scanStreamingMarkdown(text, 0).cut;
    assert.equal(text.slice(first), "three");
    assert.equal(scanStreamingMarkdown(text, first).cut, first);
    assert.equal(scanStreamingMarkdown(`${text}\n\nfour`, first).cut, `${text}\n\n`.length);
  });
});

describe("scanStreamingMarkdown", () => {
  it("cuts after a code block closed at the margin: nothing after it renders it differently", () => {
    const text = "Here:\n```ts\nconst a = 1;\n```\nAnd then";
    assert.deepEqual(scanStreamingMarkdown(text, 0), { cut: text.length - "And then".length });
    // Indented, it may belong to a list item: only a blank line after it cuts.
    const listed = "- item\n  ```\n  code\n  ```\n  more";
    assert.deepEqual(scanStreamingMarkdown(listed, 0), { cut: 0 });
  });

  it("finds the code block still open at the end: its line and where its code starts", () => {
    const text = "Intro\n\nThe file:\n```ts\nconst a = 1;\nconst b";
    const start = "Intro\n\nThe file:\n".length;
    assert.deepEqual(scanStreamingMarkdown(text, 0), { cut: "Intro\n\n".length, open: { start, bodyStart: start + "```ts\n".length, indent: 0 } });
    // Blank lines inside code are not cuts; the opening line must be complete.
    assert.deepEqual(scanStreamingMarkdown("```\na\n\nb", 0), { cut: 0, open: { start: 0, bodyStart: 4, indent: 0 } });
    assert.deepEqual(scanStreamingMarkdown("```t", 0), { cut: 0 });
  });

  it("closes a fence as CommonMark does: the same character, at least as long, nothing after", () => {
    for (const inner of ["```", "~~~~", "````ts", "```` x"]) {
      const text = `\`\`\`\`md\n${inner}\nstill code\n`;
      assert.deepEqual(scanStreamingMarkdown(text, 0), { cut: 0, open: { start: 0, bodyStart: 7, indent: 0 } }, inner);
    }
    const closed = "~~~\ncode\n~~~~  \n";
    assert.deepEqual(scanStreamingMarkdown(closed, 0), { cut: closed.length });
    // Backticks in a backtick fence's info string: not a fence (inline code).
    assert.deepEqual(scanStreamingMarkdown("```a`b```\n\nx", 0), { cut: "```a`b```\n\n".length });
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

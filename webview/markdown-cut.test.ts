import { strict as assert } from "node:assert";
import { stableMarkdownCut } from "./markdown-cut";

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

import { strict as assert } from "node:assert";
import { ArgumentBounds, MAX_TOOL_ARGUMENT_DEPTH } from "./tool-call-limits";

describe("tool-call argument bounds", () => {
  const feed = (chunks: string[]) => {
    const bounds = new ArgumentBounds();
    for (const chunk of chunks) {
      const refused = bounds.push(chunk);
      if (refused) return refused;
    }
    return undefined;
  };

  it("counts nesting across chunks, not brackets inside strings or after escaped quotes", () => {
    const deep = "[".repeat(MAX_TOOL_ARGUMENT_DEPTH);
    assert.equal(feed([`{"a": ${deep.slice(1)}`, "]".repeat(MAX_TOOL_ARGUMENT_DEPTH - 1), "}"]), undefined, "exactly the limit is fine");
    assert.match(feed(["{\"a\": ", deep]) ?? "", /nest deeper than 100 levels/);
    assert.equal(feed([`{"text": "${"[{".repeat(500)}\\"${"[".repeat(200)}"}`]), undefined, "brackets in a string are text");
    assert.equal(feed(['{"a": "x\\\\"', ', "b": [1]}']), undefined, "an escaped backslash ends the escape");
  });

  it("refuses arguments over the size bound", () => {
    const bounds = new ArgumentBounds();
    const chunk = `"${"x".repeat(1024 * 1024)}`;
    let refused: string | undefined;
    for (let i = 0; i < 20 && !refused; i++) refused = bounds.push(chunk);
    assert.match(refused ?? "", /larger than 16 MB/);
  });
});

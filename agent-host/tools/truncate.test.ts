import { strict as assert } from "node:assert";
import { DEFAULT_MAX_BYTES, formatSize, lastBytes, truncateHead, truncateLine, truncateTail } from "./truncate";

describe("tools/truncate", () => {
  it("leaves small content alone and counts a final newline as ending the last line", () => {
    const r = truncateHead("a\nb\n");
    assert.equal(r.truncated, false);
    assert.equal(r.totalLines, 2);
    assert.equal(r.content, "a\nb\n");
  });

  it("head: keeps whole lines up to the line limit", () => {
    const r = truncateHead("1\n2\n3\n4", { maxLines: 2 });
    assert.deepEqual([r.content, r.truncatedBy, r.outputLines, r.totalLines], ["1\n2", "lines", 2, 4]);
  });

  it("head: stops before the line that would pass the byte limit", () => {
    const r = truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 10 });
    assert.deepEqual([r.content, r.truncatedBy, r.outputBytes], ["aaaa\nbbbb", "bytes", 9]);
  });

  it("head: reports a first line that alone is over the limit", () => {
    const r = truncateHead("x".repeat(20) + "\nshort", { maxBytes: 10 });
    assert.equal(r.firstLineExceedsLimit, true);
    assert.equal(r.content, "");
  });

  it("tail: keeps the last lines, and cuts the start of a single huge last line on a UTF-8 boundary", () => {
    assert.equal(truncateTail("1\n2\n3\n4\n", { maxLines: 2 }).content, "3\n4");
    const r = truncateTail("ok\n" + "é".repeat(10), { maxBytes: 7 });
    assert.equal(r.lastLinePartial, true);
    assert.equal(r.content, "ééé");
    assert.equal(lastBytes("aé", 1), "");
  });

  it("formats sizes and cuts long lines as pi does", () => {
    assert.deepEqual([formatSize(10), formatSize(DEFAULT_MAX_BYTES), formatSize(3 * 1024 * 1024)], ["10B", "50.0KB", "3.0MB"]);
    assert.deepEqual(truncateLine("abcdef", 3), { text: "abc... [truncated]", wasTruncated: true });
  });
});

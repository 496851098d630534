import * as assert from "node:assert/strict";
import { findAll, locate, step } from "./find-text";

describe("find in the conversation", () => {
  it("finds every occurrence, ignoring case, without overlaps", () => {
    assert.deepEqual(findAll("Abc abc ABC", "abc"), [{ start: 0, end: 3 }, { start: 4, end: 7 }, { start: 8, end: 11 }]);
    assert.deepEqual(findAll("aaaa", "aa"), [{ start: 0, end: 2 }, { start: 2, end: 4 }]);
    assert.deepEqual(findAll("text", ""), []);
  });
  it("takes the query literally: regex characters and markup are plain text", () => {
    assert.deepEqual(findAll("a.b axb (x)", "a.b"), [{ start: 0, end: 3 }]);
    assert.deepEqual(findAll("f(x) [y]", "(x)"), [{ start: 1, end: 4 }]);
    assert.deepEqual(findAll("<img src=x onerror=alert(1)>", "<img"), [{ start: 0, end: 4 }]);
    assert.deepEqual(findAll("a\\b", "\\"), [{ start: 1, end: 2 }]);
  });
  it("keeps offsets of the original text for non-ASCII case folding", () => {
    assert.deepEqual(findAll("Größe GRÖSSE größe", "größe"), [{ start: 0, end: 5 }, { start: 13, end: 18 }]);
  });
  it("places offsets of the joined text in its pieces", () => {
    const lengths = [3, 0, 4];
    assert.deepEqual(locate(lengths, 0, false), { piece: 0, offset: 0 });
    assert.deepEqual(locate(lengths, 3, false), { piece: 2, offset: 0 });
    assert.deepEqual(locate(lengths, 3, true), { piece: 0, offset: 3 });
    assert.deepEqual(locate(lengths, 7, true), { piece: 2, offset: 4 });
  });
  it("steps through matches with wrap-around", () => {
    assert.equal(step(0, 3, 1), 1);
    assert.equal(step(2, 3, 1), 0);
    assert.equal(step(0, 3, -1), 2);
    assert.equal(step(-1, 0, 1), -1);
  });
});

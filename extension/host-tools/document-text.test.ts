import * as assert from "node:assert/strict";
import { contentHash, readWindow, sameHash } from "./document-text";

describe("editor tools: document text", () => {
  it("hashes content to a short sha256 that changes with the text", () => {
    const hash = contentHash("hello\n");
    assert.match(hash, /^sha256:[0-9a-f]{16}$/);
    assert.equal(hash, contentHash("hello\n"));
    assert.notEqual(hash, contentHash("hello \n"));
  });

  it("compares hashes with or without prefix, in any case, full or short", () => {
    const hash = contentHash("x");
    const digits = hash.slice("sha256:".length);
    assert.ok(sameHash(hash, hash));
    assert.ok(sameHash(digits.toUpperCase(), hash));
    assert.ok(sameHash(`sha256:${digits}0123456789abcdef`, hash), "a full 64-digit hash starts the same");
    assert.ok(!sameHash(contentHash("y"), hash));
    assert.ok(!sameHash("abc", hash), "too short to mean anything");
  });

  it("returns a window of lines with where to continue", () => {
    const text = ["a", "b", "c", "d", "e"].join("\n") + "\n";
    assert.deepEqual(readWindow(text), { text: "a\nb\nc\nd\ne", startLine: 1, endLine: 5, totalLines: 5 });
    assert.deepEqual(readWindow(text, 2, 2), { text: "b\nc", startLine: 2, endLine: 3, totalLines: 5, nextOffset: 4 });
    assert.deepEqual(readWindow("x\r\ny"), { text: "x\ny", startLine: 1, endLine: 2, totalLines: 2 });
    assert.deepEqual(readWindow(""), { text: "", startLine: 0, endLine: 0, totalLines: 0 });
  });

  it("cuts at the character budget on whole lines, and refuses offsets past the end", () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n");
    const window = readWindow(text, 1, undefined, { maxLines: 100, maxChars: 20 });
    assert.equal(window.text, "line 1\nline 2");
    assert.equal(window.nextOffset, 3);
    assert.throws(() => readWindow(text, 11), /beyond the end/);
  });
});

import * as assert from "node:assert/strict";
import { applyOffsetEdits, lineStarts, lspEditsToOffsets, matchReplacements } from "./edit-matching";

const apply = (text: string, edits: { oldText: string; newText: string }[]) => applyOffsetEdits(text, matchReplacements(text, edits, "f.ts"));

describe("editor tools: edit matching", () => {
  const text = "function a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\n";

  it("replaces each oldText found exactly once, matched against the original text", () => {
    const out = apply(text, [
      { oldText: "return 2;", newText: "return 20;" },
      { oldText: "function a", newText: "function alpha" },
    ]);
    assert.equal(out, "function alpha() {\n  return 1;\n}\nfunction b() {\n  return 20;\n}\n");
  });

  it("explains missing, ambiguous, empty and overlapping edits", () => {
    assert.throws(() => apply(text, [{ oldText: "return 3;", newText: "" }]), /Could not find oldText in f\.ts.*editor_read/);
    assert.throws(() => apply(text, [{ oldText: "return", newText: "yield" }]), /oldText occurs 2 times in f\.ts; it must be unique/);
    assert.throws(() => apply(text, [{ oldText: "a", newText: "b" }, { oldText: "", newText: "x" }]), /edits\[1\]\.oldText is empty/);
    assert.throws(() => apply(text, [{ oldText: "function a() {", newText: "" }, { oldText: "a() {\n  return 1", newText: "" }]), /edits\[0\] and edits\[1\] overlap/);
    assert.throws(() => matchReplacements(text, [], "f.ts"), /edits is empty/);
  });

  it("matches LF-written oldText in a CRLF document and keeps CRLF in the new text", () => {
    const crlf = "one\r\ntwo\r\nthree\r\n";
    assert.equal(apply(crlf, [{ oldText: "one\ntwo", newText: "1\n2" }]), "1\r\n2\r\nthree\r\n");
  });

  it("turns LSP TextEdits into offsets, checking their positions", () => {
    const edits = lspEditsToOffsets(text, [
      { range: { start: { line: 1, character: 9 }, end: { line: 1, character: 10 } }, newText: "42" },
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: "// top\n" },
    ]);
    assert.deepEqual(edits.map((e) => e.index), [1, 0], "sorted by position");
    assert.equal(applyOffsetEdits(text, edits), "// top\nfunction a() {\n  return 42;\n}\nfunction b() {\n  return 2;\n}\n");
    assert.throws(() => lspEditsToOffsets(text, [{ range: { start: { line: 99, character: 0 }, end: { line: 99, character: 0 } }, newText: "" }]), /line 99 is beyond the last line/);
    assert.throws(() => lspEditsToOffsets(text, [{ range: { start: { line: 1, character: 40 }, end: { line: 1, character: 41 } }, newText: "" }]), /character 40 is beyond the end of line 1/);
    assert.throws(() => lspEditsToOffsets(text, [{ range: { start: { line: 1, character: 4 }, end: { line: 1, character: 2 } }, newText: "" }]), /ends before it starts/);
  });

  it("does not count a CR as part of a line for LSP positions", () => {
    const crlf = "ab\r\ncd";
    assert.deepEqual(lineStarts(crlf), [0, 4]);
    assert.throws(() => lspEditsToOffsets(crlf, [{ range: { start: { line: 0, character: 3 }, end: { line: 0, character: 3 } }, newText: "" }]), /beyond the end of line 0 \(2 characters\)/);
    assert.equal(applyOffsetEdits(crlf, lspEditsToOffsets(crlf, [{ range: { start: { line: 0, character: 2 }, end: { line: 1, character: 0 } }, newText: " " }])), "ab cd");
  });
});

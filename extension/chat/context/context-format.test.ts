import * as assert from "node:assert/strict";
import { capBlocks, fileBlock, folderBlock, problemsBlock, sliceLines, withContext, withoutContext } from "./context-format";
import { foldersOf, rankPaths } from "./path-rank";

describe("attached context", () => {
  const text = "one\ntwo\nthree\nfour\n";

  it("takes the lines of a range (1-based, inclusive, clamped to the file)", () => {
    assert.deepEqual(sliceLines(text, { start: 2, end: 3 }), { body: "two\nthree", lines: { start: 2, end: 3 }, total: 4 });
    assert.deepEqual(sliceLines(text, { start: 4, end: 9 }), { body: "four", lines: { start: 4, end: 4 }, total: 4 });
    assert.deepEqual(sliceLines("a\r\nb\r\nc", { start: 2, end: 2 }), { body: "b", lines: { start: 2, end: 2 }, total: 3 });
    assert.deepEqual(sliceLines(text, { start: 7, end: 9 }), { error: "the file has 4 lines", total: 4 });
    assert.deepEqual(fileBlock("src/a.ts", text, { start: 2, end: 3 }), { attrs: { type: "file", path: "src/a.ts", lines: "2-3" }, body: "two\nthree" });
    assert.deepEqual(fileBlock("src/a.ts", text), { attrs: { type: "file", path: "src/a.ts" }, body: "one\ntwo\nthree\nfour" });
  });

  it("writes blocks after the user's text, attributes escaped", () => {
    const message = withContext("Explain", [fileBlock('we"ird<.ts', "x\n"), problemsBlock([])]);
    assert.equal(message, 'Explain\n\n<context type="file" path="we&quot;ird&lt;.ts">\nx\n</context>\n\n<context type="problems">\n(no problems)\n</context>');
    assert.equal(withContext("Plain", []), "Plain");
    assert.equal(withoutContext(message), "Explain");
    assert.equal(withoutContext("Plain"), "Plain");
  });

  it("lists problems errors first as path:line:col severity: message", () => {
    const block = problemsBlock([
      { path: "b.ts", line: 2, column: 1, severity: "warning", message: "unused" },
      { path: "a.ts", line: 9, column: 4, severity: "error", message: "bad\n  type", source: "ts" },
    ]);
    assert.equal(block.body, "a.ts:9:4 error: bad type [ts]\nb.ts:2:1 warning: unused");
    const many = problemsBlock(Array.from({ length: 5 }, (_, i) => ({ path: "a.ts", line: i + 1, column: 1, severity: "info" as const, message: "m" })), 3);
    assert.match(many.body, /\[2 more not shown\]$/);
    assert.equal(folderBlock("src", ["b.ts", "lib/", "a.ts"]).body, "a.ts\nb.ts\nlib/");
  });

  it("cuts a block over its budget at a line and says how much is missing", () => {
    const big = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join("\n");
    const [cut] = capBlocks([fileBlock("big.txt", big)], { blockChars: 1000, totalChars: 10_000, problems: 0, folderEntries: 0 });
    assert.equal(cut.attrs.truncated, "true");
    assert.ok(cut.body.length <= 1000, `${cut.body.length}`);
    const lines = cut.body.split("\n");
    assert.equal(lines[0], "line 1");
    const shown = lines.length - 1;
    assert.equal(lines.at(-1), `[truncated: ${1000 - shown} more lines not shown; read the file for them]`);
    assert.equal(lines.at(-2), `line ${shown}`);
  });

  it("leaves out blocks once the total budget is spent", () => {
    const body = "x".repeat(900);
    const blocks = capBlocks([fileBlock("a", body), fileBlock("b", body), fileBlock("c", body)], { blockChars: 1000, totalChars: 1500, problems: 0, folderEntries: 0 });
    assert.equal(blocks[0].body, body);
    assert.equal(blocks[1].attrs.truncated, "true");
    assert.equal(blocks[2].attrs.omitted, "the attached context reached its size limit");
    assert.equal(blocks[2].body, "");
  });

  it("ranks completion paths: name prefix, name, path, then fuzzy", () => {
    const entries = ["src/greet.ts", "src/math.js", "test/greeting.test.ts", "docs/big-regex.md", "src"].map((path) => ({ kind: path === "src" ? ("folder" as const) : ("file" as const), path }));
    assert.deepEqual(rankPaths("gre", entries).map((e) => e.path), ["src/greet.ts", "test/greeting.test.ts", "docs/big-regex.md"]);
    assert.deepEqual(rankPaths("src/m", entries).map((e) => e.path), ["src/math.js"]);
    assert.deepEqual(rankPaths("sgt", entries).map((e) => e.path), ["src/greet.ts", "test/greeting.test.ts"]);
    assert.deepEqual(rankPaths("", entries, 2).map((e) => e.path), ["src", "src/math.js"]);
    assert.deepEqual(foldersOf(["a/b/c.ts", "a/d.ts", "e.ts"]).sort(), ["a", "a/b"]);
  });
});

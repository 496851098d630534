import { strict as assert } from "node:assert";
import { lineRuns, unifiedPatch } from "./line-diff";

describe("line-diff (the diff library)", () => {
  it("groups a change as its removals, then its additions", () => {
    assert.deepEqual(lineRuns("a\nb\nc\n", "a\nB\nC\nc\n"), [
      { kind: "equal", lines: ["a\n"] },
      { kind: "remove", lines: ["b\n"] },
      { kind: "add", lines: ["B\n", "C\n"] },
      { kind: "equal", lines: ["c\n"] },
    ]);
  });

  it("past the bound, keeps the common first and last lines and replaces the middle", () => {
    const old = ["head\n", ...Array.from({ length: 3000 }, (_, i) => `old ${i}\n`), "tail\n"];
    const changed = ["head\n", ...Array.from({ length: 3000 }, (_, i) => `new ${i}\n`), "tail\n"];
    const runs = lineRuns(old.join(""), changed.join(""));
    assert.deepEqual(runs.map((r) => [r.kind, r.lines.length]), [["equal", 1], ["remove", 3000], ["add", 3000], ["equal", 1]]);
    const patch = unifiedPatch("f", old.join(""), changed.join(""));
    assert.equal(patch.split("\n")[2], "@@ -1,3002 +1,3002 @@");
    assert.equal(patch.split("\n").length, 3 + 6004 + 1);
  });

  it("numbers an empty side as diff(1) does", () => {
    assert.equal(unifiedPatch("f", "", "new\n"), "--- f\n+++ f\n@@ -0,0 +1,1 @@\n+new\n");
    assert.equal(unifiedPatch("f", "gone\n", ""), "--- f\n+++ f\n@@ -1,1 +0,0 @@\n-gone\n");
  });
});

import { strict as assert } from "node:assert";
import { diffLines, generateDiffString, generateUnifiedPatch } from "./diff";

describe("tools/diff", () => {
  it("finds the changed lines and keeps the rest equal", () => {
    const parts = diffLines("a\nb\nc\n", "a\nB\nc\nd\n");
    assert.deepEqual(parts, [
      { kind: "equal", lines: ["a\n"] },
      { kind: "remove", lines: ["b\n"] },
      { kind: "add", lines: ["B\n"] },
      { kind: "equal", lines: ["c\n"] },
      { kind: "add", lines: ["d\n"] },
    ]);
  });

  it("shows pi's display diff: numbered changes, 4 lines of context, ... for the rest", () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n");
    const changed = old.replace("l10", "TEN");
    const { diff, firstChangedLine } = generateDiffString(old, changed);
    assert.equal(firstChangedLine, 10);
    assert.equal(diff, ["    ...", "  6 l6", "  7 l7", "  8 l8", "  9 l9", "-10 l10", "+10 TEN", " 11 l11", " 12 l12", " 13 l13", " 14 l14", "    ..."].join("\n"));
  });

  it("writes unified patches, marking a missing final newline", () => {
    assert.equal(generateUnifiedPatch("f", "a\nb", "a\nc"), "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    assert.equal(generateUnifiedPatch("f", "", "new\n"), "--- f\n+++ f\n@@ -0,0 +1,1 @@\n+new\n");
    assert.equal(generateUnifiedPatch("f", "same\n", "same\n"), "--- f\n+++ f\n");
  });

  it("splits distant changes into hunks", () => {
    const old = Array.from({ length: 30 }, (_, i) => `${i + 1}`).join("\n") + "\n";
    const patch = generateUnifiedPatch("f", old, old.replace("2\n", "two\n").replace("28\n", "twenty-eight\n"));
    assert.deepEqual(patch.split("\n").filter((l) => l.startsWith("@@")), ["@@ -1,6 +1,6 @@", "@@ -24,7 +24,7 @@"]);
  });

  it("stays fast on big files", () => {
    const big = Array.from({ length: 50000 }, (_, i) => `line ${i}`).join("\n");
    const started = Date.now();
    generateDiffString(big, big.replace("line 25000", "changed"));
    generateDiffString(big, Array.from({ length: 50000 }, (_, i) => `other ${i}`).join("\n"));
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started}ms`);
  });
});

import { strict as assert } from "node:assert";
import { changeCounts, changeHunks, changeKind, fileUndo, keptHunk, stillChanged, undoneHunk, type FileChange } from "./file-change";
import { hunksOf, placeHunk, splitLines, undoHunk, withoutReverted } from "./hunks";

const text = (...lines: string[]) => lines.map((l) => `${l}\n`).join("");
const buf = (s: string) => Buffer.from(s, "utf8");

describe("review: hunks of an agent's change", () => {
  const before = text("one", "two", "three", "four", "five", "six");
  const agent = text("one", "TWO", "three", "four", "five", "six", "seven");

  it("splits lines keeping their terminators, the last without one too", () => {
    assert.deepEqual(splitLines("a\r\nb\nc"), ["a\r\n", "b\n", "c"]);
    assert.deepEqual(splitLines(""), []);
  });

  it("finds each changed region without context", () => {
    assert.deepEqual(hunksOf(before, agent), [
      { oldStart: 1, oldLines: ["two\n"], newStart: 1, newLines: ["TWO\n"] },
      { oldStart: 6, oldLines: [], newStart: 6, newLines: ["seven\n"] },
    ]);
  });

  it("undoes a hunk in place when the user edited the file elsewhere since", () => {
    const [first, second] = hunksOf(before, agent);
    // The user added two lines at the top and changed "five" after the agent's run.
    const current = text("# header", "", "one", "TWO", "three", "four", "FIVE!", "six", "seven");
    const undone = undoHunk(first, agent, current);
    assert.ok(!undone.conflict);
    assert.equal(undone.current, text("# header", "", "one", "two", "three", "four", "FIVE!", "six", "seven"));
    assert.equal(undone.agent, text("one", "two", "three", "four", "five", "six", "seven"));
    assert.equal(undone.line, 3);
    // The other hunk is still found, moved by the user's lines, and undone alone.
    const next = undoHunk(second, agent, undone.current);
    assert.ok(!next.conflict);
    assert.equal(next.current, text("# header", "", "one", "two", "three", "four", "FIVE!", "six"));
  });

  it("refuses a hunk whose lines the user changed since, and changes nothing", () => {
    const [first] = hunksOf(before, agent);
    const current = text("one", "TWO and more", "three", "four", "five", "six", "seven");
    assert.deepEqual(undoHunk(first, agent, current), { conflict: true, line: 1 });
    // An insertion by the user where the agent only removed lines is a conflict too.
    const removed = hunksOf(text("a", "b", "c"), text("a", "c"));
    assert.equal(placeHunk(removed[0], text("a", "c"), text("a", "x", "c")).conflict, true);
    assert.equal(placeHunk(removed[0], text("a", "c"), text("a", "c", "d")).conflict, undefined);
  });

  it("keeps the last line's missing newline byte for byte", () => {
    const hunks = hunksOf("a\nb", "a\nb\n");
    assert.equal(hunks.length, 1);
    const undone = undoHunk(hunks[0], "a\nb\n", "a\nb\n");
    assert.ok(!undone.conflict);
    assert.equal(undone.current, "a\nb");
  });
});

/** `before` with each hunk's old lines replaced by its new lines: must give the agent's text back. */
function applyHunks(before: string, hunks: ReturnType<typeof hunksOf>): string {
  const lines = splitLines(before);
  for (const h of [...hunks].reverse()) lines.splice(h.oldStart, h.oldLines.length, ...h.newLines);
  return lines.join("");
}

describe("review: hunks of a big file, on the extension host (issue 31)", () => {
  const line = (i: number) => `const value${i % 7} = "quoted \\ path\tand tab", café = \`\${s}\`; // ünïcödé\n`;
  const big = Array.from({ length: 15_000 }, (_, i) => line(i)).join(""); // ~1 MB

  for (const [what, before, agent] of [
    ["a new 1 MB file", "", big],
    ["a 1 MB file deleted", big, ""],
    ["a 1 MB file with every line rewritten", big, big.replace(/value/g, "renamed")],
    ["a 1 MB file with lines changed at the start, the middle and the end", big, `// head\n${big.slice(0, 500_000)}X\n${big.slice(500_000)}// tail\n`],
    ["a 1 MB file appended to", big, `${big}${big.slice(0, 200_000)}`],
  ] as const) {
    it(`${what}: hunks that rebuild the agent's text, in well under a second`, () => {
      const started = performance.now();
      const hunks = hunksOf(before, agent);
      const ms = performance.now() - started;
      assert.equal(applyHunks(before, hunks), agent);
      assert.ok(ms < 1000, `${ms.toFixed(0)} ms`);
    });
  }

  it("small changes keep their own hunks (the bound is not reached)", () => {
    const before = text(...Array.from({ length: 200 }, (_, i) => `line ${i}`));
    const agent = before.replace("line 10\n", "LINE 10\n").replace("line 150\n", "");
    const hunks = hunksOf(before, agent);
    assert.deepEqual(hunks.map((h) => [h.oldStart, h.oldLines.length, h.newLines.length]), [[10, 1, 1], [150, 1, 0]]);
    assert.equal(applyHunks(before, hunks), agent);
  });
});

describe("review: a file's Keep and Undo", () => {
  const change = (before: string | null | undefined, agent: string | null): FileChange => ({
    path: "/w/f.txt",
    before: before === undefined ? undefined : before === null ? null : buf(before),
    agent: agent === null ? null : buf(agent),
    owners: new Set(["s1"]),
  });

  it("keeps one hunk: it leaves the review, the others stay", () => {
    const c = change(text("a", "b", "c", "d"), text("A", "b", "c", "D"));
    const [first] = changeHunks(c);
    c.before = keptHunk(c, first);
    assert.equal(c.before?.toString(), text("A", "b", "c", "d"));
    assert.deepEqual(changeHunks(c).map((h) => h.newLines), [["D\n"]]);
    assert.deepEqual(changeCounts(c), { added: 1, removed: 1 });
  });

  it("a created file: all lines added, Undo deletes it (warning when the user changed it since)", () => {
    const c = change(null, text("new", "file"));
    assert.equal(changeKind(c), "created");
    assert.deepEqual(changeCounts(c), { added: 2, removed: 0 });
    assert.deepEqual(fileUndo(c, buf(text("new", "file"))), { action: "delete", conflict: false });
    assert.deepEqual(fileUndo(c, buf(text("new", "file", "mine"))), { action: "delete", conflict: true });
    // Undoing its one hunk empties it; the file stays (only file Undo deletes).
    const undone = undoneHunk(c, changeHunks(c)[0], text("new", "file"));
    assert.ok(!undone.conflict);
    assert.equal(undone.current, "");
  });

  it("a deleted file: all lines removed, Undo writes it back; a file back as before leaves the review", () => {
    const c = change(text("x", "y"), null);
    assert.equal(changeKind(c), "deleted");
    assert.deepEqual(changeCounts(c), { added: 0, removed: 2 });
    const undo = fileUndo(c, null);
    assert.equal(undo.action === "write" && undo.content.toString(), text("x", "y"));
    assert.equal(undo.action === "write" && undo.conflict, false);
    assert.equal(stillChanged(c, null), true);
    assert.equal(stillChanged(c, buf(text("x", "y"))), false);
  });

  it("a file changed by a command, not recorded: no hunks, no counts, Undo unavailable", () => {
    const c = change(undefined, text("changed"));
    assert.deepEqual(changeHunks(c), []);
    assert.equal(changeCounts(c), undefined);
    assert.equal(fileUndo(c, buf(text("changed"))).action, "unavailable");
  });

  it("binary content has no hunks", () => {
    const c: FileChange = { path: "/w/b.bin", before: Buffer.from([0, 1, 2]), agent: Buffer.from([0, 1, 3]), owners: new Set(["s1"]) };
    assert.deepEqual(changeHunks(c), []);
    assert.equal(changeCounts(c), undefined);
  });
});

describe("review: hunks the user put back by hand", () => {
  it("takes a hunk reverted exactly (the diff's revert arrow) as undone, not as a conflict", () => {
    const before = text("a", "b", "c", "d");
    const agent = text("a", "B", "c", "D", "e");
    const current = text("a", "b", "c", "D", "e");
    assert.equal(withoutReverted(before, agent, current), text("a", "b", "c", "D", "e"));
    assert.equal(withoutReverted(before, agent, text("a", "B!", "c", "D", "e")), agent, "an edit is not a revert");
  });
});

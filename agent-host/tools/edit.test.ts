import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { validateToolArguments } from "../agent/validate-arguments";
import { createEditTool, prepareEditArguments, type EditToolDetails } from "./edit";
import { run, tempDir, textOf } from "./test-support";

describe("tools/edit", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());
  const file = (name: string, content?: string) => {
    if (content !== undefined) writeFileSync(join(dir, name), content);
    return readFileSync(join(dir, name), "utf-8");
  };

  it("replaces a unique match and returns a diff and a patch", async () => {
    file("a.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const { result } = await run(createEditTool(dir), { path: "a.ts", edits: [{ oldText: "const b = 2;", newText: "const b = 20;" }] });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), "Successfully replaced 1 block(s) in a.ts.");
    assert.equal(file("a.ts"), "const a = 1;\nconst b = 20;\nconst c = 3;\n");
    const details = result.details as EditToolDetails;
    assert.equal(details.diff, " 1 const a = 1;\n-2 const b = 2;\n+2 const b = 20;\n 3 const c = 3;");
    assert.equal(details.firstChangedLine, 2);
    assert.equal(details.patch, "--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;\n");
  });

  it("applies several disjoint edits, each matched against the original", async () => {
    file("b.txt", "alpha\nbeta\ngamma\n");
    const { result } = await run(createEditTool(dir), {
      path: "b.txt",
      edits: [
        { oldText: "gamma", newText: "GAMMA" },
        { oldText: "alpha", newText: "beta" }, // "beta" appears after this edit, but matching uses the original
      ],
    });
    assert.equal(textOf(result), "Successfully replaced 2 block(s) in b.txt.");
    assert.equal(file("b.txt"), "beta\nbeta\nGAMMA\n");
  });

  it("refuses text that is not there, naming the edit when there are several", async () => {
    file("c.txt", "hello\n");
    const one = (await run(createEditTool(dir), { path: "c.txt", edits: [{ oldText: "bye", newText: "x" }] })).result;
    assert.equal(one.isError, true);
    assert.equal(textOf(one), "Could not find the exact text in c.txt. The old text must match exactly including all whitespace and newlines.");
    const two = (await run(createEditTool(dir), { path: "c.txt", edits: [{ oldText: "hello", newText: "x" }, { oldText: "bye", newText: "y" }] })).result;
    assert.equal(textOf(two), "Could not find edits[1] in c.txt. The oldText must match exactly including all whitespace and newlines.");
    assert.equal(file("c.txt"), "hello\n", "nothing is written when any edit fails");
  });

  it("refuses text that occurs several times", async () => {
    file("d.txt", "x = 1\nx = 1\nx = 1\n");
    const { result } = await run(createEditTool(dir), { path: "d.txt", edits: [{ oldText: "x = 1", newText: "x = 2" }] });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "Found 3 occurrences of the text in d.txt. The text must be unique. Please provide more context to make it unique.");
  });

  it("refuses overlapping edits, empty oldText, no-op edits and an empty edits list", async () => {
    file("e.txt", "abcdef\n");
    const tool = createEditTool(dir);
    const overlap = await run(tool, { path: "e.txt", edits: [{ oldText: "abcd", newText: "1" }, { oldText: "cdef", newText: "2" }] });
    assert.equal(textOf(overlap.result), "edits[0] and edits[1] overlap in e.txt. Merge them into one edit or target disjoint regions.");
    assert.equal(textOf((await run(tool, { path: "e.txt", edits: [{ oldText: "", newText: "1" }] })).result), "oldText must not be empty in e.txt.");
    assert.match(textOf((await run(tool, { path: "e.txt", edits: [{ oldText: "abc", newText: "abc" }] })).result), /^No changes made to e\.txt\. The replacement produced identical content\./);
    assert.equal(textOf((await run(tool, { path: "e.txt", edits: [] })).result), "Edit tool input is invalid. edits must contain at least one replacement.");
  });

  it("reports a missing or unreachable file with its error code", async () => {
    const { result } = await run(createEditTool(dir), { path: "ghost.txt", edits: [{ oldText: "a", newText: "b" }] });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "Could not edit file: ghost.txt. Error code: ENOENT.");
    file("blocker", "a file where a directory should be");
    const blocked = await run(createEditTool(dir), { path: "blocker/x.txt", edits: [{ oldText: "a", newText: "b" }] });
    assert.equal(textOf(blocked.result), "Could not edit file: blocker/x.txt. Error code: ENOTDIR.");
  });

  it("keeps CRLF line endings and a BOM", async () => {
    file("w.txt", "\uFEFFone\r\ntwo\r\nthree\r\n");
    await run(createEditTool(dir), { path: "w.txt", edits: [{ oldText: "one\ntwo", newText: "1\n2" }] });
    assert.equal(file("w.txt"), "\uFEFF1\r\n2\r\nthree\r\n");
  });

  it("matches despite smart quotes and trailing spaces, leaving other lines byte for byte", async () => {
    file("q.md", "keep this line   \nShe said \u201Chello\u201D \u2014 twice\nand\u00A0this one too  \n");
    const { result } = await run(createEditTool(dir), { path: "q.md", edits: [{ oldText: 'She said "hello" - twice', newText: "She said hi" }] });
    assert.equal(result.isError, undefined);
    assert.equal(file("q.md"), "keep this line   \nShe said hi\nand\u00A0this one too  \n");
  });

  it("lands two concurrent edit calls on the same file", async () => {
    file("p.txt", "first\nsecond\n");
    const tool = createEditTool(dir);
    const [a, b] = await Promise.all([
      run(tool, { path: "p.txt", edits: [{ oldText: "first", newText: "1st" }] }),
      run(tool, { path: "p.txt", edits: [{ oldText: "second", newText: "2nd" }] }),
    ]);
    assert.equal(a.result.isError ?? b.result.isError, undefined);
    assert.equal(file("p.txt"), "1st\n2nd\n");
  });

  it("repairs the argument shapes models send instead of edits[]", () => {
    const tool = createEditTool(dir);
    const one = { oldText: "a", newText: "b" };
    const check = (args: unknown) => validateToolArguments(tool, tool.prepareArguments!(args));
    assert.deepEqual(check({ path: "f", edits: JSON.stringify([one]) }), { ok: true, args: { path: "f", edits: [one] } });
    assert.deepEqual(check({ path: "f", edits: one }), { ok: true, args: { path: "f", edits: [one] } });
    assert.deepEqual(check({ path: "f", oldText: "a", newText: "b" }), { ok: true, args: { path: "f", edits: [one] } });
    assert.equal(prepareEditArguments(null), null);
    assert.equal(check({ path: "f" }).ok, false);
  });

  it("checks the signal between steps and leaves the file alone when aborted first", async () => {
    file("z.txt", "z\n");
    const controller = new AbortController();
    controller.abort();
    const { result } = await run(createEditTool(dir), { path: "z.txt", edits: [{ oldText: "z", newText: "Z" }] }, controller.signal);
    assert.equal(textOf(result), "Operation aborted");
    assert.equal(file("z.txt"), "z\n");
  });
});

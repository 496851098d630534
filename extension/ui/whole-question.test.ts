import * as assert from "node:assert/strict";
import { fitsQuickPick, wholeQuestion } from "./whole-question";

const select = (title: string, options = ["Allow once", "Deny"]) => ({ type: "extension_ui_request" as const, id: "q", method: "select" as const, title, options });
const joined = (rows: string[]) => rows.join("").replace(/\u00a0/g, " ");

describe("whole questions", () => {
  it("keeps a short plain question in the quick pick's title", () => {
    assert.ok(fitsQuickPick(select("Allow bash: npm test")));
    assert.equal(wholeQuestion(select("Allow bash: npm test")), undefined);
  });

  it("lays a long or multi-line question out as rows holding all of it, controls visible", () => {
    const command = `${"echo harmless ".repeat(15)}; echo X > file`;
    const long = wholeQuestion(select(`Allow bash to run this command?\n${command}`));
    assert.ok(long);
    assert.equal(long.headline, "Allow bash to run this command?");
    assert.equal(joined(long.rows), command);
    assert.ok(long.rows.every((row) => row.length <= 56));
    const hidden = wholeQuestion(select("Pick\u202e one"));
    assert.equal(hidden?.headline, "The agent asks (all of it below):");
    assert.equal(joined(hidden!.rows), "Pick\\u{202e} one");
  });

  it("writes out long answers whole in the rows and numbers them", () => {
    const long = "x".repeat(100);
    const q = wholeQuestion(select("Which?", ["short", long]));
    assert.deepEqual(q?.answers, ["1. short", `2. ${"x".repeat(56)}`]);
    assert.ok(joined(q!.rows).endsWith(`Answers:↵2. ${long}`.replace("↵2", "↵1. short↵2")));
    const confirm = { type: "extension_ui_request" as const, id: "c", method: "confirm" as const, title: "Delete?", message: "m\n".repeat(3) };
    assert.equal(joined(wholeQuestion(confirm)!.rows), "Delete?m↵m↵m↵");
  });
});

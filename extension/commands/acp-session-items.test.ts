import { strict as assert } from "node:assert";
import { acpResumeLack, acpSessionRows } from "./acp-session-items";

describe("Resume Session with an ACP agent: what it says and lists (foreign text)", () => {
  it("says which capability the agent lacks, its name unable to become a link", () => {
    assert.equal(acpResumeLack("Agent", true, true), undefined);
    assert.match(acpResumeLack("Agent", false, true)!, /Agent cannot reopen its sessions over ACP \(it declares no loadSession\)/);
    assert.match(acpResumeLack("Agent", true, false)!, /does not list its sessions over ACP/);
    const hostile = acpResumeLack("[Open settings](command:workbench.action.openSettings)", false, false)!;
    assert.doesNotMatch(hostile, /\]\(command:/, "no [label](command:…) link");
  });

  it("rows: a hostile title or id on one line, every character visible, no icon of its own; the current one marked", () => {
    const rows = acpSessionRows([
      { sessionId: "s1", title: "$(warning) fake\nsecond line\u202etxt.exe", updatedAt: "2026-01-02T03:04:05Z" },
      { sessionId: "id\u0007$(bell)", updatedAt: "not a date" },
    ], "s1");
    assert.equal(rows[0]!.label.includes("\n"), false);
    assert.match(rows[0]!.label, /^\\\$\(warning\) fake second line/, "the icon syntax kept as text");
    assert.doesNotMatch(rows[0]!.label, /\u202e/, "no bidi override");
    assert.match(rows[0]!.description, /\(current\)$/);
    assert.equal(rows[1]!.label, "(untitled)");
    assert.doesNotMatch(rows[1]!.detail, /\u0007/);
    assert.match(rows[1]!.detail, /\\\$\(bell\)/);
    assert.equal(rows[1]!.description, "", "an unreadable date is left out");
    assert.equal(rows[1]!.sessionId, "id\u0007$(bell)", "the id itself is sent back as the agent gave it");
  });
});

import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PermissionMode } from "../../../shared/protocol";
import { createProtectedWriteCheck, ProtectedWriteApprovals } from "./protected-write-check";

describe("protected-write-check: the path a write really opens, checked at the write", () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "protected-write-")));
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".git/config"), "[core]\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("refuses a path that now leads to a protected file nobody allowed; lets plain files through", () => {
    let mode: PermissionMode = "acceptEdits";
    const check = createProtectedWriteCheck(new ProtectedWriteApprovals(), () => mode);
    writeFileSync(join(root, "notes.txt"), "");
    assert.doesNotThrow(() => check(join(root, "notes.txt"), "notes.txt"));
    symlinkSync(".git/config", join(root, "swapped"));
    assert.throws(() => check(join(root, "swapped"), "swapped"), /Refused: swapped leads to the protected file .*\.git\/config/);
    symlinkSync(".git", join(root, "dir"));
    assert.throws(() => check(join(root, "dir/hooks/pre-commit"), "dir/hooks/pre-commit"), /protected file/);
    mode = "auto";
    assert.doesNotThrow(() => check(join(root, "swapped"), "swapped"), "auto asks nothing, checks nothing");
  });

  it("under a sandbox, auto writes no protected file unasked: bash cannot write .git/config there, write may not either", () => {
    const approvals = new ProtectedWriteApprovals();
    const check = createProtectedWriteCheck(approvals, () => "auto", "workspace-write");
    assert.throws(() => check(join(root, ".git/config"), ".git/config"), /Refused: \.git\/config leads to the protected file .* did not allow/);
    assert.throws(() => check(join(root, "sub/.VSCODE/tasks.json"), "sub/.VSCODE/tasks.json"), /protected file/);
    writeFileSync(join(root, "notes.txt"), "");
    assert.doesNotThrow(() => check(join(root, "notes.txt"), "notes.txt"));
    approvals.grant(join(root, ".git/config"), "c1");
    assert.doesNotThrow(() => check(join(root, ".git/config"), ".git/config", "c1"), "allowed once when asked");
  });

  it("in a read-only sandbox, refuses every write the user did not allow", () => {
    const approvals = new ProtectedWriteApprovals();
    const check = createProtectedWriteCheck(approvals, () => "acceptEdits", "read-only");
    assert.throws(() => check(join(root, "notes.txt"), "notes.txt"), /Refused: notes\.txt leads to .*notes\.txt, in a read-only sandbox/);
    approvals.grant(join(root, "notes.txt"), "c1");
    assert.doesNotThrow(() => check(join(root, "notes.txt"), "notes.txt", "c1"));
  });

  it("an approval is for that real file and the call it was asked for, none other", () => {
    const approvals = new ProtectedWriteApprovals();
    const check = createProtectedWriteCheck(approvals, () => "ask");
    approvals.grant(join(root, ".git/config"), "c1");
    symlinkSync(".git/config", join(root, "link"));
    assert.doesNotThrow(() => check(join(root, "link"), "link", "c1"));
    assert.throws(() => check(join(root, ".git/config"), ".git/config", "c2"), /Refused/, "another call (an approved edit that failed left its approval)");
    assert.throws(() => check(join(root, ".git/config"), ".git/config"), /Refused/, "no call");
  });
});

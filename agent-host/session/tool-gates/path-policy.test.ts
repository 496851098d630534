import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isInside } from "../../../shared/node/real-path";
import { chainGates } from "./gate-chain";
import { createWorkspaceGate } from "./path-policy";

describe("workspace-only path policy", () => {
  let root: string;
  let cwd: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "path-policy-"));
    cwd = join(root, "work");
    mkdirSync(join(cwd, "src"), { recursive: true });
    writeFileSync(join(root, "secret.txt"), "outside");
    symlinkSync(root, join(cwd, "escape"));
    symlinkSync(join(cwd, "src"), join(cwd, "inner-link"));
    symlinkSync(join(root, "created.txt"), join(cwd, "dangling"));
    symlinkSync("loop-b", join(cwd, "loop-a"));
    symlinkSync("loop-a", join(cwd, "loop-b"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const call = (name: string, path: unknown) => ({ type: "toolCall" as const, id: "c", name, arguments: { path } });

  it("allows paths inside the working directory, existing or not", () => {
    const gate = createWorkspaceGate(cwd);
    for (const path of ["src", "./src/new/file.ts", join(cwd, "a.txt"), "inner-link/x", ".", "src/../b.txt", "..work"]) {
      assert.equal(gate(call("write", path)), undefined, path);
    }
  });

  it("refuses absolute, .., ~ and symlinked paths that resolve outside, for every path tool", () => {
    const gate = createWorkspaceGate(cwd);
    for (const name of ["read", "write", "edit", "ls", "find", "grep"]) {
      for (const path of ["../secret.txt", join(root, "secret.txt"), "/etc/passwd", "escape/secret.txt", "escape", "src/../../secret.txt", "~/x", `file://${root}/secret.txt`, "dangling", "loop-a/x"]) {
        const verdict = gate(call(name, path));
        assert.ok(verdict?.block, `${name} ${path}`);
        assert.match(verdict.reason, /outside the workspace/);
      }
    }
  });

  it("leaves bash and tools without a path alone", () => {
    const gate = createWorkspaceGate(cwd);
    assert.equal(gate({ type: "toolCall", id: "c", name: "bash", arguments: { command: "cat /etc/passwd" } }), undefined);
    assert.equal(gate({ type: "toolCall", id: "c", name: "ls", arguments: {} }), undefined);
  });

  it("isInside does not take a sibling with a common prefix for a child", () => {
    assert.equal(isInside("/a/work", "/a/workshop"), false);
    assert.equal(isInside("/a/work", "/a/work/..x"), true);
  });

  it("chainGates stops at the first gate that blocks", async () => {
    let asked = 0;
    const gate = chainGates([() => ({ block: true, reason: "no" }), () => (asked++, undefined)]);
    assert.deepEqual(await gate(call("read", "x"), new AbortController().signal), { block: true, reason: "no" });
    assert.equal(asked, 0);
  });
});

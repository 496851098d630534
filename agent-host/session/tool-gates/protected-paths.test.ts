import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { protectedTarget } from "./protected-paths";

describe("protected paths", () => {
  it("applies to write and edit only, on the path they would open", () => {
    const root = mkdtempSync(join(tmpdir(), "protected-target-"));
    try {
      mkdirSync(join(root, ".git"));
      symlinkSync(".git/config", join(root, "config-link"));
      assert.deepEqual(protectedTarget("write", { path: "config-link" }, root), { absPath: join(root, "config-link"), realPath: join(realpathSync(root), ".git", "config"), why: "protected" });
      assert.equal(protectedTarget("write", { path: "src/a.ts" }, root, "read-only")?.why, "read-only");
      assert.equal(protectedTarget("write", { path: "src/a.ts" }, root, "workspace-write"), undefined);
      assert.equal(protectedTarget("edit", { path: `${root}/src/../.git/config` }, root)?.absPath, join(root, ".git", "config"));
      assert.equal(protectedTarget("editor_edit", { path: ".vscode/settings.json", edits: [] }, root)?.absPath, join(root, ".vscode", "settings.json"));
      assert.equal(protectedTarget("read", { path: ".git/config" }, root), undefined);
      assert.equal(protectedTarget("write", { path: "src/a.ts" }, root), undefined);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

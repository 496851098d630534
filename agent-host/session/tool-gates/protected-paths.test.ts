import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isProtectedPath, protectedTarget } from "./protected-paths";

describe("protected paths", () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "protected-unit-"));
    mkdirSync(join(root, ".git"));
    mkdirSync(join(root, "docs"));
    symlinkSync("../.git/config", join(root, "docs", "config"));
    symlinkSync("../.vscode", join(root, "docs", "editor"));
    symlinkSync("loop-b", join(root, "loop-a"));
    symlinkSync("loop-a", join(root, "loop-b"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("protects what tools and the editor run or obey, by the real path, in any letter case", () => {
    const yes = [
      ".git/config", ".git/hooks/pre-commit", "sub/.git/config", ".pi/extensions/x.ts", ".pi/settings.json", ".vscode/tasks.json", ".vscode/launch.json",
      ".husky/pre-commit", ".githooks/pre-push", ".github/workflows/ci.yml", ".gitlab-ci.yml", ".circleci/config.yml", "package.json", "sub/package.json",
      ".npmrc", ".yarnrc.yml", "pnpm-workspace.yaml", "Makefile", ".envrc", ".devcontainer/devcontainer.json", ".pre-commit-config.yaml", "x.code-workspace",
      ".GIT/config", ".Vscode/settings.json", "PACKAGE.JSON", "docs/config", "docs/editor/tasks.json", ".git./config", "package.json::$DATA", "loop-a",
    ];
    for (const path of yes) assert.ok(isProtectedPath(join(root, path)), path);
    const no = ["src/index.ts", "README.md", "docs/guide.md", "gitconfig", ".gitignore", "package.json.md", "my.git/x", ".pi-notes.md", "vscode/tasks.json"];
    for (const path of no) assert.ok(!isProtectedPath(join(root, path)), path);
  });

  it("applies to write and edit only, on the path they would open", () => {
    assert.deepEqual(protectedTarget("write", { path: "docs/config" }, root), { absPath: join(root, "docs", "config"), realPath: join(realpathSync(root), ".git", "config") });
    assert.equal(protectedTarget("edit", { path: `${root}/src/../.git/config` }, root)?.absPath, join(root, ".git", "config"));
    assert.equal(protectedTarget("editor_edit", { path: ".vscode/settings.json", edits: [] }, root)?.absPath, join(root, ".vscode", "settings.json"));
    assert.equal(protectedTarget("read", { path: ".git/config" }, root), undefined);
    assert.equal(protectedTarget("write", { path: "src/a.ts" }, root), undefined);
  });
});

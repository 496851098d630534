import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isProtectedPath, protectedPartOf } from "./protected-match";
import { protectedWorkspaceNames } from "./protected-paths";

describe("protected names: the one test of every door a write goes through", () => {
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
      ".npmrc", ".yarnrc.yml", "pnpm-workspace.yaml", "Makefile", ".envrc", ".devcontainer/devcontainer.json", ".pre-commit-config.yaml", "x.code-workspace", ".mise.toml", ".codex/config.toml", "Jenkinsfile",
      ".GIT/config", ".Vscode/settings.json", "PACKAGE.JSON", "docs/config", "docs/editor/tasks.json", ".git./config", "package.json::$DATA", "loop-a",
    ];
    for (const path of yes) assert.ok(isProtectedPath(join(root, path)), path);
    const no = ["src/index.ts", "README.md", "docs/guide.md", "gitconfig", ".gitignore", "package.json.md", "my.git/x", ".pi-notes.md", "vscode/tasks.json"];
    for (const path of no) assert.ok(!isProtectedPath(join(root, path)), path);
  });

  it("keeps to the sandbox's read-only names where asked (ACP writes, checkpoint restores): package.json is ordinary work there", () => {
    assert.equal(protectedPartOf("package.json", protectedWorkspaceNames), undefined);
    assert.equal(protectedPartOf("sub/.GIT./hooks/pre-commit", protectedWorkspaceNames)?.entry.name, ".git");
    assert.equal(protectedPartOf(".Vscode", protectedWorkspaceNames)?.part, ".Vscode");
    assert.equal(protectedPartOf("src/.npmrc", protectedWorkspaceNames)?.entry.name, ".npmrc");
    assert.equal(protectedPartOf("src/.npmrc.bak", protectedWorkspaceNames), undefined);
  });
});

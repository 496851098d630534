import { strict as assert } from "node:assert";
import { mkdirSync, rmSync } from "node:fs";
import { relative } from "node:path";
import { loadContextFiles, type ContextFileOptions } from "./context-files";
import { tempTree, type TempTree } from "../../../test/fixtures/host/context-tree";

describe("loadContextFiles", () => {
  let t: TempTree;
  beforeEach(() => (t = tempTree("ctxfiles-")));
  afterEach(() => t.remove());

  /** Loaded files inside the temp tree (ancestors above it, e.g. /tmp, are not ours to control). */
  const load = (options: Partial<ContextFileOptions> & { cwd: string }): string[] =>
    loadContextFiles({ agentDir: t.path("agent"), ...options })
      .filter((f) => f.path.startsWith(t.root))
      .map((f) => `${relative(t.root, f.path)}=${f.content}`);

  it("agent dir first, then every ancestor from the outermost down to cwd", () => {
    t.write("agent/AGENTS.md", "global");
    t.write("a/AGENTS.md", "a");
    t.write("a/b/c/CLAUDE.md", "c");
    mkdirSync(t.path("a/b/c/d"), { recursive: true });
    assert.deepEqual(load({ cwd: t.path("a/b/c/d") }), ["agent/AGENTS.md=global", "a/AGENTS.md=a", "a/b/c/CLAUDE.md=c"]);
  });

  it("one file per folder: AGENTS.override.md, then AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD", () => {
    t.write("p/CLAUDE.md", "claude");
    t.write("p/CLAUDE.MD", "CLAUDE");
    assert.deepEqual(load({ cwd: t.path("p") }), ["p/CLAUDE.md=claude"]);
    t.write("p/AGENTS.MD", "AGENTS");
    assert.deepEqual(load({ cwd: t.path("p") }), ["p/AGENTS.MD=AGENTS"]);
    t.write("p/AGENTS.md", "agents");
    assert.deepEqual(load({ cwd: t.path("p") }), ["p/AGENTS.md=agents"]);
    t.write("p/AGENTS.override.md", "override");
    assert.deepEqual(load({ cwd: t.path("p") }), ["p/AGENTS.override.md=override"]);
  });

  it("skips a folder named like a context file and takes the next name", () => {
    mkdirSync(t.path("p/AGENTS.md"), { recursive: true });
    t.write("p/CLAUDE.md", "claude");
    assert.deepEqual(load({ cwd: t.path("p") }), ["p/CLAUDE.md=claude"]);
  });

  it("keeps a file once when the agent dir is also an ancestor of cwd", () => {
    t.write("agent/AGENTS.md", "global");
    mkdirSync(t.path("agent/work"), { recursive: true });
    assert.deepEqual(load({ cwd: t.path("agent/work") }), ["agent/AGENTS.md=global"]);
  });

  it("strips a byte-order mark; `enabled: false` (--no-context-files) loads nothing", () => {
    t.write("agent/AGENTS.md", "\uFEFFglobal");
    t.write("p/AGENTS.md", "p");
    assert.deepEqual(load({ cwd: t.path("p") }), ["agent/AGENTS.md=global", "p/AGENTS.md=p"]);
    assert.deepEqual(loadContextFiles({ cwd: t.path("p"), agentDir: t.path("agent"), enabled: false }), []);
  });

  it("in a linked worktree nested in its main checkout, the main checkout's same-named file is skipped", () => {
    t.write("main/.git/HEAD", "ref: refs/heads/main\n");
    t.write("main/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
    t.write("main/.git/worktrees/wt/commondir", "../..\n");
    t.write("main/wt/.git", "gitdir: ../.git/worktrees/wt\n");
    t.write("main/AGENTS.md", "main");
    t.write("main/wt/AGENTS.md", "worktree");
    mkdirSync(t.path("main/wt/src"), { recursive: true });
    assert.deepEqual(load({ cwd: t.path("main/wt/src") }), ["main/wt/AGENTS.md=worktree"]);
    // Only the same name is shadowed: a CLAUDE.md in the main checkout is still inherited.
    rmSync(t.path("main/AGENTS.md"));
    t.write("main/CLAUDE.md", "main claude");
    assert.deepEqual(load({ cwd: t.path("main/wt/src") }), ["main/CLAUDE.md=main claude", "main/wt/AGENTS.md=worktree"]);
  });

  it("a sibling worktree or an ordinary repository inherits ancestors normally", () => {
    t.write("main/.git/HEAD", "ref: refs/heads/main\n");
    t.write("main/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
    t.write("main/.git/worktrees/wt/commondir", "../..\n");
    t.write("sibling/.git", "gitdir: ../main/.git/worktrees/wt\n");
    t.write("AGENTS.md", "top");
    t.write("sibling/AGENTS.md", "sibling");
    t.write("main/CLAUDE.md", "main");
    t.write("main/sub/CLAUDE.md", "sub");
    assert.deepEqual(load({ cwd: t.path("sibling") }), ["AGENTS.md=top", "sibling/AGENTS.md=sibling"]);
    assert.deepEqual(load({ cwd: t.path("main/sub") }), ["AGENTS.md=top", "main/CLAUDE.md=main", "main/sub/CLAUDE.md=sub"]);
  });
});

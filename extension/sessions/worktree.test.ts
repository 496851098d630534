import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { terminalLaunch } from "./terminal-handoff";
import { createWorktree, gitRoot, worktreeBranch } from "./worktree";

describe("session worktrees", () => {
  let dir: string;
  beforeEach(() => (dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pi-worktree-")))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

  it("names branches pi/<slug>-<time>", () => {
    assert.equal(worktreeBranch("Fix the Tests!", new Date("2026-11-22T08:09:10.123Z")), "pi/fix-the-tests-20261122-080910");
    assert.equal(worktreeBranch("***", new Date("2026-11-22T08:09:10Z")), "pi/session-20261122-080910");
  });

  it("creates a worktree on a new branch outside the repository and leaves the user's checkout alone", async () => {
    const repo = path.join(dir, "repo");
    fs.mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(repo, "a.txt"), "one\n");
    git(repo, "add", "a.txt");
    git(repo, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "first");
    fs.writeFileSync(path.join(repo, "a.txt"), "uncommitted\n");
    assert.equal(await gitRoot(path.join(repo)), repo);
    const worktree = await createWorktree(repo, path.join(dir, "storage"), "pi/session-1");
    assert.ok(worktree.path.startsWith(path.join(dir, "storage")));
    assert.equal(fs.readFileSync(path.join(worktree.path, "a.txt"), "utf8"), "one\n");
    assert.equal(git(worktree.path, "branch", "--show-current"), "pi/session-1");
    assert.equal(git(repo, "branch", "--show-current"), "main");
    assert.equal(fs.readFileSync(path.join(repo, "a.txt"), "utf8"), "uncommitted\n");
  });

  it("finds no repository outside git", async () => {
    assert.equal(await gitRoot(dir), undefined);
  });
});

describe("terminal handoff", () => {
  it("runs the terminal program directly with --session and the absolute file", () => {
    const launch = terminalLaunch({ terminalCommand: "", agentCommand: "", sessionFile: "/tmp/s/a b.jsonl", cwd: "/w", label: "Fix" });
    assert.deepEqual(launch, { name: "Pi: Fix", shellPath: "pi", shellArgs: ["--session", "/tmp/s/a b.jsonl"], cwd: "/w" });
    assert.equal(terminalLaunch({ terminalCommand: "", agentCommand: "/opt/omp", sessionFile: "/f", cwd: "/", label: "x" }).shellPath, "/opt/omp");
    assert.equal(terminalLaunch({ terminalCommand: "pi-tui", agentCommand: "/opt/omp", sessionFile: "/f", cwd: "/", label: "x" }).shellPath, "pi-tui");
  });
});

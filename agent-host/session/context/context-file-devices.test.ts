// Context files load whatever the project's trust (as in pi), so a cloned repository decides what
// AGENTS.md is: git ships a symlink to /dev/zero, an archive or a command a FIFO. Loading must not
// hang the host or fill its memory; the file is left out with a diagnostic. In a child process, so
// that a hang is a failure, not a stuck run.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runInChild } from "../../../test/support/run-in-child";

const module = path.join(__dirname, "context-files.ts");
const ignoreModule = path.join(__dirname, "ignore-rules.ts");

/** A skill folder's .gitignore read by IgnoreRules in a child: whether it hung. */
function ignoreRulesInChild(dir: string): { timedOut: boolean; out: string } {
  const run = runInChild(`const { IgnoreRules } = require(${JSON.stringify(ignoreModule)}); new IgnoreRules(${JSON.stringify(dir)}).addFolder(${JSON.stringify(dir)}); console.log("done")`);
  return { timedOut: run.timedOut, out: run.lines[0] ?? run.stderr };
}

/** The contents of the context files of `cwd`'s own folders loaded in a child, whether it hung, its peak memory. */
function loadInChild(cwd: string): { timedOut: boolean; loaded: string; peakMb: number } {
  const run = runInChild(`const { loadContextFiles } = require(${JSON.stringify(module)}); const files = loadContextFiles({ cwd: ${JSON.stringify(cwd)}, agentDir: ${JSON.stringify(path.join(cwd, "agent"))} }); console.log(JSON.stringify(files.filter((f) => f.path.startsWith(${JSON.stringify(cwd)})).map((f) => f.content)))`);
  return { timedOut: run.timedOut, loaded: run.lines[0] ?? run.stderr, peakMb: run.peakMb };
}

describe("context and ignore files that are not regular files (a repository's AGENTS.md, a skill folder's .gitignore)", function () {
  this.timeout(60_000);
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "pi-ctx-devices-"));
    fs.mkdirSync(path.join(root, "repo", "sub"), { recursive: true });
    fs.writeFileSync(path.join(root, "repo", "AGENTS.md"), "outer");
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("AGENTS.md as a FIFO: left out, the host goes on", function () {
    if (process.platform === "win32") this.skip();
    execFileSync("mkfifo", [path.join(root, "repo", "sub", "AGENTS.md")]);
    const result = loadInChild(path.join(root, "repo", "sub"));
    assert.equal(result.timedOut, false, "loading the context files hung on the FIFO");
    assert.equal(result.loaded, "[]", "nothing of the cwd's own folder loaded");
  });

  it("AGENTS.md as a symlink to /dev/zero: left out, not read without end", function () {
    if (process.platform === "win32") this.skip();
    fs.symlinkSync("/dev/zero", path.join(root, "repo", "sub", "AGENTS.md"));
    const result = loadInChild(path.join(root, "repo", "sub"));
    assert.equal(result.timedOut, false, "loading the context files read /dev/zero without end");
    assert.ok(result.peakMb < 400, `loading took ${result.peakMb} MB`);
  });

  it("a skill folder's .gitignore as a FIFO or /dev/zero: skipped, the scan goes on", function () {
    if (process.platform === "win32") this.skip();
    const skills = path.join(root, "skills");
    fs.mkdirSync(skills);
    execFileSync("mkfifo", [path.join(skills, ".gitignore")]);
    fs.symlinkSync("/dev/zero", path.join(skills, ".ignore"));
    const result = ignoreRulesInChild(skills);
    assert.equal(result.timedOut, false, "reading the ignore files hung");
    assert.equal(result.out, "done");
  });
});

// The deep scan of protected names (#30) against a command that tries to hide one from it: nested
// deeper than a depth cap would reach, or behind more folders than the scan reads. Real bubblewrap,
// the CommandSandbox as the host uses it (a command wrapped, run, swept, released).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandSandbox, type SandboxOptions } from "../../shared/node/sandbox";

describe("sandbox: a protected name hidden from the deep scan", function () {
  this.timeout(60_000);
  let work: string;
  let quarantine: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), "deep-scan-"));
    quarantine = mkdtempSync(join(tmpdir(), "deep-scan-q-"));
  });
  afterEach(() => {
    rmSync(work, { recursive: true, force: true });
    rmSync(quarantine, { recursive: true, force: true });
  });

  async function run(script: string, options: SandboxOptions = {}): Promise<{ said: string | undefined; notices: string[] }> {
    const notices: string[] = [];
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: work, writableRoots: [] }, process.env, { quarantineDir: quarantine, onQuarantine: (m) => notices.push(m), ...options });
    const probe = await sandbox.probe();
    assert.ok(probe.ok, "bubblewrap runs here (the test set-up installs it)");
    if (!probe.ok) throw new Error("unreachable");
    const wrapped = sandbox.wrap(probe, ["/bin/bash", "-c", script], work);
    const ran = spawnSync(wrapped.file, wrapped.args, { cwd: work, encoding: "utf8" });
    assert.equal(ran.status, 0, ran.stderr);
    const said = wrapped.sweep();
    wrapped.release();
    sandbox.dispose();
    return { said, notices };
  }

  it("a .git 100 folders deep is moved aside (no depth cap to hide behind)", async () => {
    const deep = Array.from({ length: 100 }, () => "d").join("/");
    // Made elsewhere and renamed into place at once (the watch could move a .git made in steps before its config is written).
    const { said } = await run(`mkdir -p ${deep} prep && echo '[core] fsmonitor = x' > prep/config && mv prep ${deep}/.git`);
    assert.equal(existsSync(join(work, deep, ".git")), false, said);
    assert.match(said ?? "", /moved /);
  });

  it("a command that grows the tree past the scan's folder cap is told, and the user too", async () => {
    const { said, notices } = await run("mkdir -p $(seq -f 'f%g' 1 60) && mkdir -p f60/x/.git", { scanLimits: { maxDirs: 20, maxDepth: 4096 } });
    assert.match(said ?? "", /grew the workspace past 20 folders/);
    assert.ok(notices.some((n) => n.includes("grew the workspace")));
  });
});

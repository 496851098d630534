// Found while attacking the doors (session 19), not a door: pi and omp run sandboxed whole with the
// checkpoint store as a writable root (agent-sandbox.ts), and on desktop VS Code for Linux that store
// is <home>/.config/Code/User/globalStorage/<extension>/checkpoints, inside a folder the sandbox
// hides (homeSecrets). bwrap-args.ts shows the root again with a bind after the hiding tmpfs, but
// that tmpfs is read-only and empty, so bwrap cannot make the bind's mount point: the sandbox does
// not start ("Can't mkdir parents … Read-only file system"). bwrap-args.test.ts checks the
// arguments only; code-server keeps its storage in ~/.local/share/code-server (not hidden), so the
// editor suites do not meet it. Failed on `next` at 2a75163: the tmpfs is made read-only after the bind. Real bubblewrap.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandSandbox, probeSandbox } from "../../shared/node/sandbox";

describe("sandbox: a writable root inside a hidden folder (desktop VS Code's checkpoint store)", function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "root-in-hidden-"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("starts, and the agent can write its checkpoints there", async () => {
    const home = join(root, "home");
    const work = join(root, "work");
    const store = join(home, ".config/Code/User/globalStorage/pi.pi-vscode/checkpoints");
    mkdirSync(store, { recursive: true });
    mkdirSync(work);
    const env = { ...process.env, HOME: home, PI_SANDBOX_LEDGER_DIR: mkdtempSync(join(root, "ledger-")) };
    const probe = await probeSandbox(env);
    if (!probe.ok) throw new Error(`bubblewrap does not run here: ${probe.reason}`);
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: true, workspaceRoot: work, writableRoots: [store] }, env, { wholeAgent: true });
    const wrapped = sandbox.wrap(probe, ["bash", "-c", `echo ok > ${store}/probe && cat ${store}/probe`], work);
    const ran = spawnSync(wrapped.file, wrapped.args, { encoding: "utf8", env, cwd: work });
    wrapped.release();
    sandbox.dispose();
    assert.equal(ran.stdout, "ok\n", `exit ${ran.status}: ${ran.stderr}`);
  });
});

// Attack (red team on the placeholders' release): an agent sandboxed whole (pi, omp: the whole
// process in bubblewrap, agent-sandbox.ts) whose model leaves a job behind through the agent's
// bash, out of the agent's process group (`setsid nohup … &`). bwrap's init waits for every
// process inside, so before the fix the job outlived the stopped agent: it went on writing in the
// workspace, it held the agent's stdio open (the transport saw no end until the job ended), and
// the placeholders, released while it still had them mounted, stayed in the workspace for good.
// The sandbox as agent-sandbox.ts makes it (`wholeAgent`), real bubblewrap, a real process
// transport; a shell stands in for the agent (what it runs is the attacker's, not the agent's).
import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandSandbox, probeSandbox } from "../../shared/node/sandbox";
import { ProcessTransport } from "../../shared/node/process-transport";
import type { TransportClosed } from "../../shared/rpc/transport";
import { until } from "./raw-host";

describe("a whole agent's sandbox ends with the agent", function () {
  this.timeout(60_000);
  let root: string;
  before(() => (root = mkdtempSync(join(tmpdir(), "whole-agent-jobs-"))));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("a job the agent left out of its group (setsid) is killed when the agent stops, and no placeholder stays", async function () {
    const workspace = mkdtempSync(join(root, "work-"));
    const env = { ...process.env, PI_SANDBOX_LEDGER_DIR: mkdtempSync(join(root, "ledger-")) };
    const probe = await probeSandbox(env);
    if (!probe.ok || probe.kind !== "bwrap") this.skip(); // no bubblewrap here: no sandbox to attack
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: true, workspaceRoot: workspace, writableRoots: [] }, env, { wholeAgent: true });
    // The "agent" reads its stdin until it ends; its job keeps the agent's stdout and stderr (as a job started with `&` does).
    const agent = `setsid sh -c 'echo > job-started; sleep 50; echo late > late.txt' & exec cat > /dev/null`;
    const wrapped = sandbox.wrap(probe, ["/bin/sh", "-c", agent], workspace);
    const transport = ProcessTransport.spawn(wrapped.file, wrapped.args, { cwd: workspace, env });
    try {
      const closed = new Promise<TransportClosed>((resolve) => transport.onClose(resolve));
      assert.ok(await until(() => existsSync(join(workspace, "job-started")), 20_000), "the job started");
      assert.ok(readdirSync(workspace).includes(".vscode"), "the placeholders are there while the agent runs");
      await transport.stop(1_000);
      const end = await Promise.race([closed.then(() => "ended"), new Promise<string>((resolve) => setTimeout(() => resolve("the agent's output still open 15 s after it stopped: its job runs on"), 15_000))]);
      assert.equal(end, "ended");
    } finally {
      transport.dispose();
      wrapped.release();
      sandbox.dispose();
    }
    assert.ok(await until(() => readdirSync(workspace).length === 1, 10_000), `left in the workspace: ${readdirSync(workspace).join(" ")}`);
    assert.deepEqual(readdirSync(workspace), ["job-started"]);
  });
});

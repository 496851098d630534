// Open hole (#34 hostile review, not fixed yet; docs/trust-model.md, Known gaps): another process's
// stub that appears below this host's workspace while this host's background job runs. A second
// host started over a subfolder makes its empty `pkg/.git` (bwrap's mount point) after the first
// host's sandbox was set up, so the first cannot mount it; its watch takes it for a stub (it is one)
// and looks no further, and nothing watches inside it: the job fills it into a repository with
// core.fsmonitor, which git run from outside (the editor's) executes while the job lives. (The
// other order, the second host first, is fixed: test/reliability/host-sandbox-stub-attacks.)
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, until, type Frame } from "../reliability/raw-host";

const sandboxed = ["--sandbox", "workspace-write", "--permission-mode", "auto"];

describe("open hole: another host's stub appearing below the workspace while a job runs", function () {
  this.timeout(120_000);
  const launches: PeerLaunch[] = [];
  let root: string;
  before(() => (root = mkdtempSync(join(tmpdir(), "stub-late-"))));
  after(() => {
    for (const launch of launches) launch.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it("the first host's job cannot fill the second host's pkg/.git made after the job started", async () => {
    const ledger = mkdtempSync(join(root, "ledger-"));
    const llm = await startMockLlm();
    const llm2 = await startMockLlm();
    const outer = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(outer);
    execFileSync("git", ["init", "-q", "."], { cwd: outer.cwd });
    const sub = join(outer.cwd, "pkg");
    mkdirSync(sub);
    const marker = join(root, "fsmonitor-ran");
    const inner = peerLaunch("host", { mockBaseUrl: llm2.baseUrl, cwd: sub });
    launches.push(inner);
    const first = new RawHost(outer.command, [...outer.args, ...sandboxed], { env: { ...outer.env, PI_SANDBOX_LEDGER_DIR: ledger }, cwd: outer.cwd });
    const second = new RawHost(inner.command, [...inner.args, ...sandboxed], { env: { ...inner.env, PI_SANDBOX_LEDGER_DIR: ledger }, cwd: sub });
    const run = async (host: RawHost, model: typeof llm, command: string, id: string) => {
      model.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
      const { from } = await host.promptAnswering(id, "run it", () => undefined);
      const end = host.frames.slice(from).find((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } }) | undefined;
      return end?.result.content.map((c) => c.text ?? "").join("") ?? "";
    };
    try {
      // The first host's job waits for pkg/.git to appear, then fills it.
      const fill = `cd pkg/.git && mkdir -p objects refs/heads && echo 'ref: refs/heads/main' > HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = "touch ${marker}; false"\\n' > config`;
      await run(first, llm, `(for i in $(seq 100); do [ -d pkg/.git ] && break; sleep 0.1; done; (${fill}); echo > tried.txt; sleep 15) > /dev/null 2>&1 &\necho started`, "a1");
      await run(second, llm2, "(sleep 20 &) ; echo held", "b1");
      assert.equal(await until(() => existsSync(join(outer.cwd, "tried.txt")), 10_000), true, "the job tried");
      try {
        execFileSync("git", ["status", "--porcelain"], { cwd: sub, stdio: "ignore", env: { ...process.env, HOME: outer.env.HOME } });
      } catch {
        // only the marker matters
      }
      assert.equal(existsSync(marker), false, "the second host's stub became a repository whose fsmonitor ran outside");
    } finally {
      await first.stop();
      await second.stop();
      await llm.close();
      await llm2.close();
    }
  });
});

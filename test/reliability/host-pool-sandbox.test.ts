// The sandbox's placeholders (empty mount points bwrap makes for missing protected names, such as
// .envrc) in sessions sharing one host process (`agent-host.js --pool`, a worker per session), with
// real bubblewrap. Two faults, both failing before their fix:
//  - the workers of one process wrote one ledger entry, `<pid>.json`, each over the other's, and
//    took the other's placeholders for the user's files: a placeholder one session made while the
//    other's command ran stayed in the workspace for good;
//  - the pool's SIGTERM ended its workers without their exit handlers: the placeholders of a
//    command still running stayed (a host process of its own removes them on SIGTERM).
import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RpcClient } from "../../shared/rpc/client";
import type { TransportClosed } from "../../shared/rpc/transport";
import { HostPools } from "../../extension/supervision/pool/host-pools";
import type { LaunchToPool } from "../../extension/supervision/pool/pool-launch";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { until } from "./raw-host";

const hostScript = resolve(__dirname, "../../dist/agent-host.js");

describe("agent host pool: the sandbox's placeholders of sessions in one process", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let root: string;
  let ledger: string;
  const clients: RpcClient[] = [];
  const disposables: { dispose(): void }[] = [];

  before(async () => {
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "pi-pool-sandbox-"));
  });
  beforeEach(() => {
    // A workspace of its own, without the protected names bwrap makes placeholders for, and a ledger folder of its own.
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl, cwd: mkdtempSync(join(root, "ws-")) });
    ledger = mkdtempSync(join(root, "ledger-"));
  });
  afterEach(() => {
    llm.discardPending();
    for (const client of clients.splice(0)) client.dispose();
    for (const disposable of disposables.splice(0)) disposable.dispose();
    launch.cleanup();
  });
  after(async () => {
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  });

  const sandboxedLaunch = (): LaunchToPool => ({
    command: launch.command,
    args: [...launch.args, "--sandbox", "workspace-write", "--permission-mode", "auto"],
    env: { ...launch.env, PI_SANDBOX_LEDGER_DIR: ledger },
    cwd: launch.cwd,
    bundled: true,
  });
  const session = async (pools: HostPools) => {
    const transport = pools.open(sandboxedLaunch())!;
    const client = new RpcClient(transport);
    clients.push(client);
    await client.request("set_auto_retry", { enabled: false }, { timeoutMs: 30_000 });
    return { transport, client };
  };
  /**
   * Starts `command` as the session's bash call; `ended` resolves when its run ends. The model's
   * answers are one queue for both sessions, in the order their requests come: `then` is what
   * follows the call in it (the other session's calls and answers when they overlap).
   */
  const run = async (client: RpcClient, command: string, then: { text: string }[] = [{ text: "done" }]) => {
    llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, ...then);
    const ended = client.waitFor("agent_end", () => true, 60_000);
    await client.request("prompt", { message: "run it" });
    return { ended };
  };
  const placeholder = () => join(launch.cwd, ".envrc");

  it("removes every placeholder once the commands of two sessions, overlapping, have ended", async () => {
    const pools = new HostPools(hostScript);
    disposables.push(pools);
    const a = await session(pools);
    const b = await session(pools);
    // Requests in order: a's prompt, b's prompt (while a's command runs), a's result, b's result.
    const endA = (await run(a.client, "sleep 3", [])).ended;
    assert.ok(await until(() => existsSync(placeholder()), 20_000), "session a's command made its placeholders");
    const endB = (await run(b.client, "sleep 5", [{ text: "done" }, { text: "done" }])).ended;
    assert.ok(await until(() => readdirSync(ledger).length >= 2, 20_000), `each session holds its own entry (${readdirSync(ledger).join(", ")})`);
    await Promise.all([endA, endB]);
    assert.ok(await until(() => !existsSync(placeholder()), 10_000), "no placeholder left in the workspace");
    assert.deepEqual(readdirSync(ledger), [], "no ledger entry left");
  });

  it("removes the placeholders of a running command when the pool gets SIGTERM", async () => {
    const pools = new HostPools(hostScript);
    disposables.push(pools);
    const a = await session(pools);
    const { ended } = await run(a.client, "sleep 60");
    ended.catch(() => undefined);
    assert.ok(await until(() => existsSync(placeholder()), 20_000), "the command made its placeholders");
    const exited = new Promise<TransportClosed>((done) => a.transport.onClose(done));
    process.kill(a.transport.pid!, "SIGTERM");
    const info = await exited;
    assert.equal(info.code ?? info.signal, 143, "the pool ended as on a signal");
    assert.equal(existsSync(placeholder()), false, "the placeholders went with the session");
    assert.deepEqual(readdirSync(ledger), [], "and its ledger entry");
  });
});

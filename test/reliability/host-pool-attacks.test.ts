// Attacks on sessions sharing one host process (`pi.agent.shareProcess`: dist/agent-host.js
// --pool, a worker thread per session), driven as the editor drives them (HostPools and
// PooledTransport under the RpcClient) on the mock LLM, with real bubblewrap where a sandbox is
// named. The model of one session is the attacker; the other session is the one to protect.
import { strict as assert } from "node:assert";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RpcClient } from "../../shared/rpc/client";
import { HostPools } from "../../extension/supervision/pool/host-pools";
import type { LaunchToPool } from "../../extension/supervision/pool/pool-launch";
import type { PooledTransport } from "../../extension/supervision/pool/pooled-transport";
import { messageText, startMockLlm, type JsonObject, type MockLlm, type MockTurn, type RecordedRequest } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { until } from "./raw-host";

const hostScript = resolve(__dirname, "../../dist/agent-host.js");
const sandboxed = ["--sandbox", "workspace-write", "--permission-mode", "auto"];

/** The model as a script: `run: <command>` from the user is a bash call, anything after a tool result "done". */
function scripted(request: RecordedRequest): MockTurn {
  const last = request.body.messages.at(-1)!;
  const text = last.role === "user" ? messageText(last) : "";
  const call = /^(bash|grep): ([\s\S]*)$/.exec(text);
  if (!call) return { text: "done" };
  return { toolCalls: [{ name: call[1]!, arguments: call[1] === "bash" ? { command: call[2]! } : (JSON.parse(call[2]!) as JsonObject) }] };
}

describe("agent host pool: one session's model against the others", function () {
  this.timeout(180_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  const clients: RpcClient[] = [];
  const disposables: { dispose(): void }[] = [];

  before(async () => {
    llm = await startMockLlm();
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
  });
  afterEach(() => {
    llm.discardPending();
    for (const client of clients.splice(0)) client.dispose();
    for (const disposable of disposables.splice(0)) disposable.dispose();
  });

  /** Two sessions of one pool over `cwd`, with `extraArgs` and `extraEnv`. */
  const twoSessions = async (cwd: string, extraArgs: string[], extraEnv: Record<string, string> = {}) => {
    const sessions = mkdtempSync(join(tmpdir(), "pool-attack-sessions-"));
    disposables.push({ dispose: () => rmSync(sessions, { recursive: true, force: true }) });
    const hostLaunch: LaunchToPool = {
      command: launch.command,
      args: [...launch.args.flatMap((arg) => (arg === "--no-session" ? ["--session-dir", sessions] : [arg])), ...extraArgs],
      env: { ...launch.env, ...extraEnv },
      cwd,
      bundled: true,
    };
    const pools = new HostPools(hostScript);
    disposables.push(pools);
    const a = pools.open(hostLaunch)!;
    const b = pools.open(hostLaunch)!;
    assert.equal(pools.processCount, 1, "one process for both");
    const [clientA, clientB] = await Promise.all([connect(a), connect(b)]);
    return { a, b, clientA, clientB };
  };
  const connect = async (transport: PooledTransport) => {
    const client = new RpcClient(transport);
    clients.push(client);
    await client.request("set_auto_retry", { enabled: false }, { timeoutMs: 30_000 });
    return client;
  };
  /** Prompts `message` (see `scripted`) and resolves with the text of the tool's result once the run has ended. */
  const run = async (client: RpcClient, message: string, timeoutMs = 60_000): Promise<string> => {
    llm.enqueue(scripted, scripted);
    const tool = client.waitFor("tool_execution_end", () => true, timeoutMs);
    const done = client.waitFor("agent_end", () => true, timeoutMs);
    await client.request("prompt", { message });
    const [end] = await Promise.all([tool, done]);
    return JSON.stringify(end.result);
  };

  /** Two sandboxed sessions of one pool over a workspace that has none of the protected names, with a ledger folder of their own. */
  const sandboxedSessions = async (moreArgs: string[] = [], moreEnv: Record<string, string> = {}) => {
    const work = mkdtempSync(join(tmpdir(), "pool-attack-work-"));
    const ledger = mkdtempSync(join(tmpdir(), "pool-attack-ledger-"));
    disposables.push({ dispose: () => [work, ledger].forEach((dir) => rmSync(dir, { recursive: true, force: true })) });
    writeFileSync(join(work, "README.md"), "a workspace without .vscode, .envrc, …\n");
    return { work, ledger, ...(await twoSessions(work, [...sandboxed, ...moreArgs], { PI_SANDBOX_LEDGER_DIR: ledger, ...moreEnv })) };
  };

  it("a session whose worker is stuck (the model's grep pattern backtracking for ever) neither holds up the others' input nor its own kill", async () => {
    const work = mkdtempSync(join(tmpdir(), "pool-attack-stuck-"));
    const noRipgrep = mkdtempSync(join(tmpdir(), "pool-attack-path-"));
    disposables.push({ dispose: () => [work, noRipgrep].forEach((dir) => rmSync(dir, { recursive: true, force: true })) });
    // Without ripgrep on PATH, grep runs the model's pattern as a JavaScript RegExp in the host.
    writeFileSync(join(work, "bait.txt"), `${"a".repeat(48)}!\n`);
    const { a, clientA, clientB } = await twoSessions(work, ["--permission-mode", "auto", "--tools", "read,bash,grep"], { PATH: noRipgrep });
    const started = clientA.waitFor("tool_execution_start", () => true, 30_000);
    llm.enqueue(scripted, scripted); // one more: a late request of an earlier test takes the first
    await clientA.request("prompt", { message: `grep: ${JSON.stringify({ pattern: "^(a+)+$", path: "bait.txt" })}` });
    await started;
    // The user, seeing the chat hang, pastes a long message into it (more than a worker's input holds unread).
    for (let i = 0; i < 4; i++) void clientA.request("steer", { message: `what is going on? ${"log line\n".repeat(2_000)}` }, { timeoutMs: 120_000 }).catch(() => undefined);
    // The other session still answers…
    const answer = await Promise.race([run(clientB, "bash: echo still here", 20_000).then(() => "answered"), new Promise<string>((done) => setTimeout(() => done("no answer in 20 s"), 20_000))]);
    assert.equal(answer, "answered", "the other session's prompt was held behind the stuck one's input");
    // …and the stuck one can be stopped.
    const stopped = await Promise.race([a.stop(1_000).then(() => "stopped"), new Promise<string>((done) => setTimeout(() => done("still running after 10 s"), 10_000))]);
    assert.equal(stopped, "stopped");
  });

  it("a session killed while its sandboxed job holds the placeholders: they go with its sandbox, not with the pool", async function () {
    if (process.platform !== "linux") this.skip();
    const { work, ledger, a, clientA, clientB } = await sandboxedSessions();
    assert.match(await run(clientA, "bash: (sleep 300 &) ; echo held"), /held/);
    assert.ok(readdirSync(work).includes(".vscode"), "A's job holds the placeholders");
    // A stuck session's Stop: its worker is killed (its exit handlers do not run); the pool and B live on.
    const exited = new Promise((resolve) => a.onClose(resolve));
    a.kill();
    await exited;
    assert.ok(await until(() => readdirSync(work).length === 1, 15_000), `placeholders left while the pool lives: ${readdirSync(work).join(" ")}`);
    assert.deepEqual(readdirSync(ledger), [], "its ledger entry went");
    assert.match(await run(clientB, "bash: echo b"), /b/);
  });

  it("a session stuck while its sandboxed job holds the placeholders, then stopped: they go with its sandbox, not with the pool", async function () {
    if (process.platform !== "linux") this.skip();
    // Without ripgrep on PATH, grep runs the model's pattern as a JavaScript RegExp in the host.
    const noRipgrep = mkdtempSync(join(tmpdir(), "pool-attack-path-"));
    disposables.push({ dispose: () => rmSync(noRipgrep, { recursive: true, force: true }) });
    const { work, ledger, a, clientA, clientB } = await sandboxedSessions(["--tools", "read,bash,grep"], { PATH: noRipgrep });
    assert.match(await run(clientA, "bash: (/bin/sleep 300 &) ; echo held"), /held/);
    writeFileSync(join(work, "bait.txt"), `${"a".repeat(48)}!\n`);
    const stuck = clientA.waitFor("tool_execution_start", (event) => event.toolName === "grep", 30_000);
    llm.enqueue(scripted, scripted); // one more: a late request of an earlier test takes the first
    await clientA.request("prompt", { message: `grep: ${JSON.stringify({ pattern: "^(a+)+$", path: "bait.txt" })}` });
    await stuck;
    // Stop: the worker does not read the pool's request to exit, and is terminated (its exit handlers do not run).
    const exited = new Promise((resolve) => a.onClose(resolve));
    a.kill();
    await exited;
    assert.ok(await until(() => readdirSync(work).filter((name) => name.startsWith(".")).length === 0, 15_000), `placeholders left while the pool lives: ${readdirSync(work).join(" ")}`);
    assert.deepEqual(readdirSync(ledger), [], "its ledger entry went");
    assert.match(await run(clientB, "bash: echo b"), /b/);
  });
});

// Sessions of the bundled host sharing one process (`dist/agent-host.js --pool`, a worker per
// session), driven as the editor drives them: HostPools and PooledTransport
// (extension/supervision/pool/) under the RpcClient, on the mock LLM. Two sessions prompted at
// once each get their own answer and session file; one session's worker killed, throwing or over
// its heap limit ends that session only; the pool killed (SIGKILL) or a worker killed leaves no
// shell command running.
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RpcClient } from "../../shared/rpc/client";
import type { TransportClosed } from "../../shared/rpc/transport";
import { HostPool } from "../../extension/supervision/pool/host-pool";
import { HostPools } from "../../extension/supervision/pool/host-pools";
import { pooledLaunch, type LaunchToPool } from "../../extension/supervision/pool/pool-launch";
import { PooledTransport } from "../../extension/supervision/pool/pooled-transport";
import { ProcessTransport } from "../../shared/node/process-transport";
import { messageText, startMockLlm, type MockLlm, type RecordedRequest } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { alive, gone, until } from "./raw-host";

const hostScript = resolve(__dirname, "../../dist/agent-host.js");
const extension = resolve(__dirname, "../fixtures/extensions/worker-faults.ts");

/** The model answers each prompt with its own text, so that each session can tell its answer. */
const echo = (request: RecordedRequest) => ({ text: `answer to ${messageText(request.body.messages.at(-1)!)}` });

describe("agent host pool: sessions in one process", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let work: string;
  const clients: RpcClient[] = [];
  const disposables: { dispose(): void }[] = [];

  before(async () => {
    llm = await startMockLlm();
    work = mkdtempSync(join(tmpdir(), "pi-pool-"));
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl, cwd: work, extensions: [extension] });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
    rmSync(work, { recursive: true, force: true });
  });
  afterEach(() => {
    llm.discardPending();
    for (const client of clients.splice(0)) client.dispose();
    for (const disposable of disposables.splice(0)) disposable.dispose();
  });

  /** The peer's launch of a host of its own, with its sessions kept in `sessionDir`. */
  const hostLaunch = (sessionDir: string): LaunchToPool => {
    mkdirSync(sessionDir, { recursive: true });
    const args = launch.args.flatMap((arg) => (arg === "--no-session" ? ["--session-dir", sessionDir] : [arg]));
    return { command: launch.command, args, env: launch.env, cwd: launch.cwd, bundled: true };
  };
  const connect = async (transport: PooledTransport | ProcessTransport) => {
    const client = new RpcClient(transport);
    clients.push(client);
    await client.request("set_auto_retry", { enabled: false }, { timeoutMs: 30_000 });
    return client;
  };
  const exitOf = (transport: PooledTransport) => new Promise<TransportClosed>((resolve) => transport.onClose(resolve));
  const answerOf = async (client: RpcClient, message: string) => {
    const done = client.waitFor("agent_end", () => true, 30_000);
    await client.request("prompt", { message });
    const end = await done;
    const last = end.messages.at(-1);
    return last && last.role === "assistant" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join("") : "";
  };
  const twoSessions = () => {
    const pools = new HostPools(hostScript);
    disposables.push(pools);
    const a = pools.open(hostLaunch(join(work, "sessions-a")))!;
    const b = pools.open(hostLaunch(join(work, "sessions-b")))!;
    return { pools, a, b };
  };

  it("runs two sessions in one process, each with its own answer and session file", async () => {
    const { pools, a, b } = twoSessions();
    assert.equal(pools.processCount, 1);
    assert.equal(a.pid, b.pid);
    const [clientA, clientB] = await Promise.all([connect(a), connect(b)]);
    llm.enqueue(echo, echo);
    const [answerA, answerB] = await Promise.all([answerOf(clientA, "from a"), answerOf(clientB, "from b")]);
    assert.equal(answerA, "answer to from a");
    assert.equal(answerB, "answer to from b");
    const [stateA, stateB] = await Promise.all([clientA.request("get_state", {}), clientB.request("get_state", {})]);
    assert.ok(stateA.sessionFile?.startsWith(join(work, "sessions-a")), stateA.sessionFile);
    assert.ok(stateB.sessionFile?.startsWith(join(work, "sessions-b")), stateB.sessionFile);
    assert.match(readFileSync(stateA.sessionFile!, "utf8"), /from a/);
    assert.doesNotMatch(readFileSync(stateA.sessionFile!, "utf8"), /from b/);
    assert.match(readFileSync(stateB.sessionFile!, "utf8"), /from b/);
    // The last session's end ends the pool.
    const pid = a.pid!;
    await Promise.all([a.stop(5000), b.stop(5000)]);
    assert.ok(await gone(pid), "the pool exited after its last session");
    assert.equal(pools.processCount, 0);
  });

  for (const fault of ["kill", "throw", "heap"] as const) {
    it(`a session whose worker ${fault === "kill" ? "is killed" : fault === "throw" ? "throws" : "runs over its heap limit"} ends alone; the other answers after`, async () => {
      let a: PooledTransport;
      let b: PooledTransport;
      if (fault === "heap") {
        // A heap limit of its own for the session that will run over it.
        const pooled = pooledLaunch(hostLaunch(join(work, "heap")), hostScript, process.execPath)!;
        const pool = new HostPool(pooled.pool, () => undefined);
        disposables.push(pool);
        a = pool.open({ ...pooled, resourceLimits: { maxOldGenerationSizeMb: 64 } });
        b = pool.open(pooled);
      } else {
        ({ a, b } = twoSessions());
      }
      const [clientA, clientB] = await Promise.all([connect(a), connect(b)]);
      const exited = exitOf(a);
      if (fault === "kill") a.kill();
      else await clientA.request("prompt", { message: `/worker-fault ${fault}` });
      const info = await exited;
      if (fault === "throw") assert.match(info.error ?? "", /thrown on purpose/);
      if (fault === "heap") assert.match(info.error ?? "", /ERR_WORKER_OUT_OF_MEMORY|out of memory/i);
      assert.notEqual(info.code, 0);
      assert.ok(alive(b.pid!), "the pool lives on");
      llm.enqueue(echo);
      assert.equal(await answerOf(clientB, "still there"), "answer to still there");
    });
  }

  /** A bash command of session `a` that stays running; its pid once it runs. */
  const runningShell = async (client: RpcClient, name: string) => {
    const pidFile = join(work, `${name}.pid`);
    llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: `echo $$ > ${pidFile}; exec sleep 60` } }] });
    await client.request("prompt", { message: "run it" });
    assert.ok(await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000), "the shell started");
    return Number(readFileSync(pidFile, "utf8").trim());
  };

  it("leaves no shell command running when the pool is SIGKILLed, and every session sees its exit", async () => {
    const { a, b } = twoSessions();
    const [clientA] = await Promise.all([connect(a), connect(b)]);
    const shell = await runningShell(clientA, "pool-killed");
    const exits = Promise.all([exitOf(a), exitOf(b)]);
    process.kill(a.pid!, "SIGKILL");
    const [exitA, exitB] = await exits;
    assert.equal(exitA.signal, "SIGKILL");
    assert.equal(exitB.signal, "SIGKILL");
    assert.ok(await gone(shell, 10_000), "the shell command was killed with the pool");
  });

  it("leaves no shell command running when a session's worker is killed; the pool lives on", async () => {
    const { a, b } = twoSessions();
    const [clientA, clientB] = await Promise.all([connect(a), connect(b)]);
    const shell = await runningShell(clientA, "worker-killed");
    const exited = exitOf(a);
    a.kill();
    await exited;
    assert.ok(await gone(shell, 10_000), "the shell command was killed with its session's worker");
    llm.enqueue(echo);
    assert.equal(await answerOf(clientB, "after the kill"), "answer to after the kill");
  });

  // A window with one chat pays nothing for the pool (its first session starts later and holds
  // more in a pool than in a process of its own): the first session of a key runs alone, the
  // sessions started while it runs share one pool, and once none runs the next is alone again.
  it("places a key's first session in a process of its own and the next ones in one pool", async () => {
    const pools = new HostPools(hostScript);
    disposables.push(pools);
    const launchOf = () => hostLaunch(join(work, "placed"));
    const place = () => pools.place(launchOf(), () => ProcessTransport.spawn(launchOf().command, launchOf().args, { cwd: launchOf().cwd, env: launchOf().env }));
    const first = place();
    assert.ok(first instanceof ProcessTransport, "the first session: a process of its own");
    await connect(first);
    const second = place();
    const third = place();
    assert.ok(second instanceof PooledTransport && third instanceof PooledTransport, "the next ones: sessions of a pool");
    await Promise.all([connect(second), connect(third)]);
    assert.equal(second.pid, third.pid, "one pool");
    assert.notEqual(second.pid, first.pid);
    const firstClosed = new Promise((done) => first.onClose(done));
    first.endInput();
    await firstClosed;
    const fourth = place();
    assert.ok(fourth instanceof PooledTransport && fourth.pid === second.pid, "while the pool runs, a new session joins it");
    await connect(fourth);
    const poolGone = Promise.all([second, third, fourth].map((t) => new Promise((done) => t.onClose(done))));
    for (const t of [second, third, fourth]) t.endInput();
    await poolGone;
    const fifth = place();
    assert.ok(fifth instanceof ProcessTransport, "none running: alone again");
    await connect(fifth);
    fifth.dispose();
  });
});

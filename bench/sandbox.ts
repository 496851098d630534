/**
 * `npm run bench:sandbox`: what the sandbox (bubblewrap, --sandbox workspace-write) costs one bash
 * call and a whole tool turn, beside the same without it. Per call: `bash -c true` spawned and
 * waited for, plain vs wrapped (the argument building, the stubs, bwrap's namespaces and mounts).
 * Per turn: our host over RPC, a prompt whose scripted reply calls bash `true` and then answers,
 * from the prompt sent to agent_end. Per request (allowed hosts, #30): curl to a loopback HTTP
 * server from a sandbox with the network on (direct) and from one whose network is the filtering
 * proxy: one command with one request (the bridge's start included), then the cost of each further
 * request inside one command (20 in a row), and a 10 MB body (the tunnel's and the bridge's
 * copying). Deep scan (`--scan`): what looking for protected names at any depth (protected-scan.ts:
 * at the start of each command, and the sweep at its end) and the inotify watch while it runs
 * (protected-watch.ts) cost on a usual 10,000-file workspace and on one ten times that, and a whole
 * sandboxed `bash -c true` there. Medians (min–max) of alternating runs after a warm-up; `dist/`
 * must be built. Prints only.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CommandSandbox } from "../shared/node/sandbox";
import { ScanCache, scanProtected } from "../shared/node/sandbox/protected-scan";
import { ProtectedWatch } from "../shared/node/sandbox/protected-watch";
import { startMockLlm } from "../test/support/mock-llm";
import { peerLaunch } from "../test/support/peers";
import { RawHost } from "../test/reliability/raw-host";

const runs = Number(process.argv[2] ?? 30);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[]) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

function timeSpawn(file: string, args: string[], cwd: string): Promise<number> {
  const start = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(file, args, { cwd, stdio: "ignore", detached: true });
    child.on("error", fail);
    child.on("exit", () => done(performance.now() - start));
  });
}

async function perCall(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
  const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: work, writableRoots: [] });
  const probe = await sandbox.probe();
  if (!probe.ok) throw new Error(probe.reason);
  const plain: number[] = [];
  const boxed: number[] = [];
  for (let i = -1; i < runs; i++) {
    const a = await timeSpawn("/bin/bash", ["-c", "true"], work);
    const start = performance.now();
    const wrapped = sandbox.wrap(probe, ["/bin/bash", "-c", "true"], work);
    await timeSpawn(wrapped.file, wrapped.args, work);
    wrapped.release();
    const b = performance.now() - start;
    if (i >= 0) (plain.push(a), boxed.push(b));
  }
  sandbox.dispose();
  rmSync(work, { recursive: true, force: true });
  console.log(`one bash call (bash -c true):  plain ${fmt(plain)}  sandboxed ${fmt(boxed)}  (+${(median(boxed) - median(plain)).toFixed(1)} ms)`);
}

async function perTurn(): Promise<void> {
  const llm = await startMockLlm();
  const times: Record<string, number[]> = { plain: [], sandboxed: [] };
  const hosts: Record<string, { host: RawHost; cleanup(): void }> = {};
  let id = 0;
  for (const [name, extra] of [["plain", []], ["sandboxed", ["--sandbox", "workspace-write"]]] as const) {
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    const host = new RawHost(launch.command, [...launch.args, ...extra], { env: launch.env, cwd: launch.cwd });
    await host.request({ id: `b${++id}`, type: "set_auto_retry", enabled: false });
    hosts[name] = { host, cleanup: launch.cleanup };
  }
  for (let i = -1; i < runs; i++) {
    for (const name of ["plain", "sandboxed"]) {
      const { host } = hosts[name];
      llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "done" });
      const from = host.frames.length;
      const start = performance.now();
      host.send({ id: `b${++id}`, type: "prompt", message: "go" });
      await host.waitFor("agent_end", (f) => f.type === "agent_end", from, 30_000);
      if (i >= 0) times[name].push(performance.now() - start);
    }
  }
  for (const { host, cleanup } of Object.values(hosts)) {
    host.endInput();
    await host.exited;
    cleanup();
  }
  await llm.close();
  console.log(`one tool turn (bash true + reply): plain ${fmt(times.plain)}  sandboxed ${fmt(times.sandboxed)}  (+${(median(times.sandboxed) - median(times.plain)).toFixed(1)} ms)`);
}

/** `files` files, ten a folder, four levels of folders; a nested repository every 1,000 folders. */
function makeTree(files: number): string {
  const root = mkdtempSync(join(tmpdir(), "bench-scan-"));
  for (let dir = 0; dir < files / 10; dir++) {
    const path = join(root, `a${dir % 10}`, `b${Math.floor(dir / 10) % 10}`, `c${Math.floor(dir / 100) % 10}`, `d${Math.floor(dir / 1000)}`);
    mkdirSync(path, { recursive: true });
    for (let f = 0; f < 10; f++) writeFileSync(join(path, `f${f}.ts`), "");
    if (dir % 1000 === 0) mkdirSync(join(path, ".git"));
  }
  return root;
}

async function deepScan(): Promise<void> {
  const scanRuns = Math.max(5, Math.floor(runs / 3));
  for (const files of [10_000, 100_000]) {
    const root = makeTree(files);
    const scan: number[] = [];
    const cached: number[] = [];
    const watch: number[] = [];
    const cache = new ScanCache();
    for (let i = -1; i < scanRuns; i++) {
      let start = performance.now();
      const found = scanProtected([root]);
      const a = performance.now() - start;
      start = performance.now();
      scanProtected([root], undefined, undefined, cache);
      const c = performance.now() - start;
      start = performance.now();
      new ProtectedWatch(found.folders, () => undefined).dispose();
      const b = performance.now() - start;
      if (i >= 0) (scan.push(a), cached.push(c), watch.push(b));
      if (i === 0) console.log(`  ${files.toLocaleString("en")} files: ${found.dirs} folders, ${found.entries.length} nested .git`);
      // The cache takes a folder's list again only 2 s after its last change (a fresh tree): age it once.
      if (i === -1) await new Promise((r) => setTimeout(r, 2_100));
    }
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: root, writableRoots: [] }, process.env, { quarantineDir: join(root, "..", "q") });
    const probe = await sandbox.probe();
    if (!probe.ok) throw new Error(probe.reason);
    const call: number[] = [];
    for (let i = -1; i < scanRuns; i++) {
      const start = performance.now();
      const wrapped = sandbox.wrap(probe, ["/bin/bash", "-c", "true"], root);
      await timeSpawn(wrapped.file, wrapped.args, root);
      wrapped.sweep();
      wrapped.release();
      if (i >= 0) call.push(performance.now() - start);
    }
    sandbox.dispose();
    rmSync(root, { recursive: true, force: true });
    console.log(`  ${files.toLocaleString("en")} files: one scan ${fmt(scan)}  (with the cache, nothing changed: ${fmt(cached)})  watch set up and closed ${fmt(watch)}  whole sandboxed bash -c true (cached scans, the watch kept from the call before, bwrap, sweep) ${fmt(call)}`);
  }
}

async function perRequest(): Promise<void> {
  const big = Buffer.alloc(10 * 1024 * 1024, 120);
  const server = createServer((req, res) => res.end(req.url === "/big" ? big : "ok"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const work = mkdtempSync(join(tmpdir(), "bench-proxy-"));
  const sandboxes = {
    direct: new CommandSandbox({ mode: "workspace-write", network: true, workspaceRoot: work, writableRoots: [] }),
    proxied: new CommandSandbox({ mode: "workspace-write", network: false, allowedHosts: [new URL(url).host], workspaceRoot: work, writableRoots: [] }),
  };
  const probe = await sandboxes.direct.probe();
  if (!probe.ok) throw new Error(probe.reason);
  const commands = {
    "one request": `curl -sf ${url}/ >/dev/null`,
    "20 requests": `for i in $(seq 20); do curl -sf ${url}/ >/dev/null; done`,
    "10 MB body": `curl -sf ${url}/big >/dev/null`,
  };
  const times: Record<string, Record<string, number[]>> = {};
  for (const [what, command] of Object.entries(commands)) {
    times[what] = { direct: [], proxied: [] };
    for (let i = -1; i < runs; i++) {
      for (const [name, sandbox] of Object.entries(sandboxes)) {
        await sandbox.prepare();
        const start = performance.now();
        const wrapped = sandbox.wrap(probe, ["/bin/bash", "-c", command], work);
        await timeSpawn(wrapped.file, wrapped.args, work);
        wrapped.release();
        if (i >= 0) times[what][name].push(performance.now() - start);
      }
    }
  }
  for (const sandbox of Object.values(sandboxes)) sandbox.dispose();
  server.close();
  rmSync(work, { recursive: true, force: true });
  for (const [what, t] of Object.entries(times)) console.log(`${what} (curl, loopback server): sandbox with the network on ${fmt(t.direct)}  through the proxy ${fmt(t.proxied)}  (+${(median(t.proxied) - median(t.direct)).toFixed(1)} ms)`);
  const each = (name: "direct" | "proxied") => (median(times["20 requests"][name]) - median(times["one request"][name])) / 19;
  console.log(`each further request in one command: direct ${each("direct").toFixed(1)} ms, through the proxy ${each("proxied").toFixed(1)} ms (+${(each("proxied") - each("direct")).toFixed(1)} ms)`);
}

void (async () => {
  console.log(`sandbox cost, ${runs} runs each, host ${resolve(__dirname, "../dist/agent-host.js")}`);
  if (process.argv.includes("--scan")) return deepScan();
  if (process.argv[3] === "proxy") return perRequest();
  await perCall();
  console.log("deep scan (protected names at any depth):");
  await deepScan();
  await perTurn();
  await perRequest();
})();

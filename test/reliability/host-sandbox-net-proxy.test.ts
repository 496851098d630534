// The sandbox's network per host (#30), for real: bubblewrap, curl and node inside, loopback
// servers outside, our host over RPC with the scripted LLM. Started with --sandbox-allow-host
// 127.0.0.1:<port>, a sandboxed command reaches that server through the proxy (the host's process,
// outside) and nothing directly (its own network namespace: no route, whatever it tries); a host
// not listed is asked ("Allow network access to <host> for this session?"): denied, 403 and the
// failed command says which host; allowed, the next request passes and no second question comes;
// a name that resolves to loopback (`localhost`) is refused even when allowed, and even though
// the address it resolves to is listed (only a request naming the address itself reaches it); other spellings of
// a loopback address sent to the proxy's socket directly are other hosts (asked; denied: 403). Before this change the
// host had no --sandbox-allow-host (ignored as unknown: no network at all), so the first test failed.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `n${++ids}`;

interface BashRun {
  output: string;
  questions: string[];
}

async function bash(llm: MockLlm, host: RawHost, command: string, answer: (title: string) => string | undefined = () => undefined): Promise<BashRun> {
  llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
  const { questions, from } = await host.promptAnswering(nextId(), "run it", answer);
  const end = host.frames.slice(from).find((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } }) | undefined;
  assert.ok(end, "the bash tool ran");
  return { output: end.result.content.map((c) => c.text ?? "").join(""), questions };
}

async function listen(address: string, body: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => res.end(`${body} ${req.url}\n`));
  await new Promise<void>((r) => server.listen(0, address, r));
  return { server, port: (server.address() as { port: number }).port };
}

const hasCurl = (() => {
  try {
    execFileSync("curl", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("agent host: the sandbox's network through the filtering proxy (allowed hosts)", function () {
  this.timeout(180_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let host: RawHost;
  let listed: { server: Server; port: number };
  let other: { server: Server; port: number };

  before(async function () {
    assert.ok(hasCurl, "curl is installed by the test set-up");
    llm = await startMockLlm();
    listed = await listen("127.0.0.1", "hello from the listed host");
    other = await listen("127.0.0.2", "hello from the other host");
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    host = new RawHost(launch.command, [...launch.args, "--sandbox", "workspace-write", "--sandbox-allow-host", `127.0.0.1:${listed.port}`, "--permission-mode", "auto"], { env: launch.env, cwd: launch.cwd });
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
  });
  after(async () => {
    await host?.stop();
    listed?.server.close();
    other?.server.close();
    await llm?.close();
    launch?.cleanup();
  });

  it("reaches the listed host through the proxy, and nothing directly", async () => {
    const p = listed.port;
    const started = Date.now();
    const run = await bash(llm, host, [
      `echo "proxy=$HTTP_PROXY"`,
      `curl -sS --max-time 10 http://127.0.0.1:${p}/via-proxy`,
      `curl -sS --max-time 10 https://127.0.0.1:${p}/ -k -o /dev/null 2>&1 | head -1`, // CONNECT to the listed address (not TLS: the tunnel opens, the handshake fails)
      `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${p}/direct && echo GOT:direct-http`,
      `(exec 3<>/dev/tcp/127.0.0.1/${p}) 2>/dev/null && echo GOT:direct-tcp`,
      `node -e 'require("net").connect(${p}, "127.0.0.1").on("connect", () => { console.log("GOT:node-direct"); process.exit() }).on("error", (e) => console.log("node-direct:", e.code))'`,
      `curl -sS --max-time 5 --noproxy '*' http://1.1.1.1/ -o /dev/null && echo GOT:internet-direct`,
      "true",
    ].join("\n"));
    const elapsed = Date.now() - started;
    assert.match(run.output, /proxy=http:\/\/127\.0\.0\.1:\d+/);
    assert.match(run.output, /hello from the listed host \/via-proxy/, run.output);
    assert.doesNotMatch(run.output, /GOT:/, `got out directly:\n${run.output}`);
    assert.match(run.output, /node-direct: (ECONNREFUSED|ENETUNREACH)/, run.output);
    assert.deepEqual(run.questions, [], "a listed host is not asked");
    assert.equal(pgrep("/tmp/.pi-net/proxy.sock").length, 0, "the bridge ended with the command");
    console.log(`      figures: listed host reached through the proxy; 4 direct ways tried (curl --noproxy, /dev/tcp, node net, the internet), 0 got out; turn ${elapsed} ms`);
  });

  it("asks for a host not listed: denied, 403 and the command says which host; allowed, the next request passes, asked once", async () => {
    const target = `127.0.0.2:${other.port}`;
    const denied = await bash(llm, host, `curl -sS -f --max-time 10 http://${target}/first`, () => "Deny");
    assert.equal(denied.questions.length, 2, denied.questions.join("\n---\n"));
    assert.match(denied.questions[0], new RegExp(`^Allow network access to ${target.replace(/\./g, "\\.")} for this session\\?`));
    assert.match(denied.questions[0], /on this machine or its private network/);
    assert.match(denied.questions[1], new RegExp(`network proxy refused ${target.replace(/\./g, "\\.")}`), "the run-outside question names the refused host");
    assert.doesNotMatch(denied.output, /hello from the other host/);
    assert.match(denied.output, /403/);

    // Denied is remembered for the session: the proxy's socket used directly (no bridge) gets the same answer, with no question.
    const raw = await bash(llm, host, `node -e 'const s = require("net").connect("/tmp/.pi-net/proxy.sock"); s.write("CONNECT ${target} HTTP/1.1\\r\\n\\r\\n"); s.on("data", (d) => { console.log("RAW:" + String(d).split("\\r\\n")[0]); process.exit() })'`);
    assert.match(raw.output, /RAW:HTTP\/1\.1 403/, raw.output);
    assert.deepEqual(raw.questions, []);

    // A new session asks again; allowed, it passes, and the next request is not asked.
    await host.request({ id: nextId(), type: "new_session" });
    const allowed = await bash(llm, host, `curl -sS -f --max-time 10 http://${target}/second`, (title) => (title.startsWith("Allow network access") ? "Allow for this session" : "Deny"));
    assert.equal(allowed.questions.length, 1, allowed.questions.join("\n---\n"));
    assert.match(allowed.output, /hello from the other host \/second/, allowed.output);
    const again = await bash(llm, host, `curl -sS -f --max-time 10 http://${target}/third`);
    assert.deepEqual(again.questions, []);
    assert.match(again.output, /hello from the other host \/third/);
  });

  it("keeps the proxy's socket out of reach of a command that moves, removes or replaces it, for the next command too", async () => {
    const p = listed.port;
    const tamper = await bash(llm, host, [
      "mv /tmp/.pi-net /tmp/moved 2>/dev/null && echo GOT:moved",
      "rm -rf /tmp/.pi-net 2>/dev/null; [ -S /tmp/.pi-net/proxy.sock ] && echo socket-still-there",
      "touch /tmp/.pi-net/x 2>/dev/null && echo GOT:wrote-into",
      // A background job tries to put a symlink in its place once the command (and its bridge) ended.
      "(sleep 1; rm -rf /tmp/.pi-net; ln -s /etc /tmp/.pi-net) >/dev/null 2>&1 &",
      "true",
    ].join("\n"));
    assert.doesNotMatch(tamper.output, /GOT:/, tamper.output);
    assert.match(tamper.output, /socket-still-there/);
    await new Promise((r) => setTimeout(r, 1_500));
    const next = await bash(llm, host, `curl -sS --max-time 10 http://127.0.0.1:${p}/next; ls -ld /tmp/.pi-net | cut -c1`);
    assert.match(next.output, /hello from the listed host \/next/, next.output);
    assert.match(next.output, /^d$/m, "a real folder again");
  });

  it("refuses a name that resolves to loopback, even when allowed, and other spellings of loopback through the proxy's socket", async () => {
    const p = listed.port;
    const run = await bash(llm, host, [
      // --noproxy '': through the proxy although NO_PROXY names localhost (the sandbox's own loopback).
      `curl -sS --max-time 10 --noproxy '' http://localhost:${p}/by-name; echo`,
      ...[`[::ffff:127.0.0.1]:${p}`, `[::1]:${p}`, `0.0.0.0:${p}`].map((t) => `node -e 'const s = require("net").connect("/tmp/.pi-net/proxy.sock"); s.write("CONNECT ${t} HTTP/1.1\\r\\n\\r\\n"); s.on("data", (d) => { console.log("RAW ${t} " + String(d).split("\\r\\n")[0]); process.exit() })'`),
      "true",
    ].join("\n"), (title) => (title.startsWith("Allow network access to localhost") ? "Allow for this session" : "Deny"));
    assert.doesNotMatch(run.output, /hello from the listed host/, `a name reached the user's loopback:\n${run.output}`);
    assert.match(run.output, /localhost resolves to [^\n]*loopback/, run.output);
    assert.ok(run.questions.some((q) => q.startsWith(`Allow network access to localhost:${p}`)), "asked, and allowed");
    // Each spelling is another address than the one listed: asked (denied here), 403.
    assert.equal((run.output.match(/RAW \S+ HTTP\/1\.1 403/g) ?? []).length, 3, run.output);
  });
});

function pgrep(pattern: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

// Attack (#30 hostile review): with the network on (pi.sandbox.network for the bundled host; pi and
// omp sandboxed as a whole always have it) the sandbox shares the host's network namespace, and
// with it the abstract unix sockets: no file, so hiding /tmp, the runtime dir and the named sockets
// does not reach them. On a desktop that is X11 (`@/tmp/.X11-unix/X0`: keystrokes into the user's
// terminal) and, on some systems, the session bus (`unix:abstract=…`: systemd-run --user): a way
// out. The test listens on an abstract socket outside and connects from a sandboxed bash. Fails on
// the current code (hole described in the report; the fix is a seccomp filter refusing AF_UNIX
// socket() in the sandbox, as sandbox-runtime does, or a separate network namespace with a proxy).
import { strict as assert } from "node:assert";
import { spawn, type ChildProcess } from "node:child_process";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `a${++ids}`;

describe("agent host: a sandboxed bash with the network on cannot reach the host's abstract unix sockets", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let host: RawHost;
  let server: ChildProcess;
  const name = `pi-attack-abstract-${process.pid}`;

  before(async () => {
    llm = await startMockLlm();
    // A Python listener (the Node of the test runner does not bind abstract names).
    const listener = `import socket,sys\nsrv=socket.socket(socket.AF_UNIX)\nsrv.bind("\\0${name}")\nsrv.listen(8)\nprint("ready",flush=True)\nwhile True:\n  c,_=srv.accept()\n  c.sendall(b"hello from the host's abstract socket\\n")\n  c.close()\n`;
    server = spawn("python3", ["-c", listener], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((r) => server.stdout?.once("data", () => r()));
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    host = new RawHost(launch.command, [...launch.args, "--sandbox", "workspace-write", "--sandbox-network", "--permission-mode", "auto"], { env: launch.env, cwd: launch.cwd });
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
  });
  after(async () => {
    await host.stop();
    server.kill();
    await llm.close();
    launch.cleanup();
  });

  it("connects to nothing outside", async () => {
    const script = `import socket\\ns = socket.socket(socket.AF_UNIX)\\ns.connect("\\\\0${name}")\\nprint("GOT:" + s.recv(100).decode())`;
    llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: `printf '${script}' | python3 - 2>&1; true` } }] }, { text: "done" });
    const from = host.frames.length;
    host.send({ id: nextId(), type: "prompt", message: "run it" });
    await host.waitFor("the end of the run", (f) => f.type === "agent_end", from, 60_000);
    const end = host.frames.slice(from).find((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } }) | undefined;
    const output = end?.result.content.map((c) => c.text ?? "").join("") ?? "";
    assert.doesNotMatch(output, /GOT:hello/, `the sandboxed bash reached the host's abstract socket:\n${output}`);
    assert.match(output, /Error|denied|refused|not permitted/i, `the attempt ran and failed:\n${output}`);
  });
});

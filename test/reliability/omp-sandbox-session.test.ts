// omp sandboxed whole (as agent-sandbox.ts does by default) saved no session: it locks each session
// file by binding an abstract datagram unix socket, the seccomp filter of a sandbox with the network
// on refused every unix socket, and omp said "Session persistence failed: Failed to acquire native
// file lock" (found in the #32 trial; its sessions folder stayed empty, so Resume had nothing).
// omp's sandbox now allows datagram unix sockets only; stream ones (X11, the session bus) stay
// refused. Real omp, real bubblewrap, the mock LLM.
import { strict as assert } from "node:assert";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CommandSandbox, probeSandbox } from "../../shared/node/sandbox";
import { agentDirGuard } from "../../extension/sandbox/agent-dir-guard";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost } from "./raw-host";

describe("omp sandboxed whole: its sessions are saved, stream unix sockets still refused", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let sandbox: CommandSandbox;
  let release: () => void = () => undefined;
  let omp: RawHost | undefined;
  let listener: ChildProcess | undefined;

  before(async function () {
    assertPeerInstalled("omp");
    llm = await startMockLlm();
    launch = peerLaunch("omp", { mockBaseUrl: llm.baseUrl });
    const env = { ...process.env, ...launch.env };
    const probe = await probeSandbox(env);
    if (!probe.ok) this.skip(); // no bubblewrap here: nothing sandboxed to check
    const home = env.HOME ?? launch.agentDir;
    for (const dir of [join(launch.agentDir, "sessions"), join(home, ".omp")]) mkdirSync(dir, { recursive: true });
    sandbox = new CommandSandbox(
      {
        mode: "workspace-write", network: true, workspaceRoot: launch.cwd, writableRoots: [launch.agentDir, join(home, ".omp")],
        visibleSecrets: [".pi/agent/auth.json"], readableRoots: [launch.agentDir, home], ...agentDirGuard(launch.agentDir, false), allowUnixDatagram: true,
      },
      env,
      { wholeAgent: true },
    );
    // With its sessions on, as the editor starts it (the peer launch turns them off).
    const args = launch.args.filter((arg) => arg !== "--no-session");
    const wrapped = sandbox.wrap(probe as Extract<typeof probe, { ok: true }>, [launch.command, ...args], launch.cwd);
    release = wrapped.release;
    omp = new RawHost(wrapped.file, wrapped.args, { env, cwd: launch.cwd });
  });
  after(async () => {
    await omp?.stop();
    release();
    sandbox?.dispose();
    listener?.kill();
    await llm?.close();
    launch?.cleanup();
  });

  it("a prompt's session is written to its sessions folder, and no persistence failure is reported", async () => {
    llm.enqueue({ text: "saved" });
    omp!.send({ id: "p1", type: "prompt", message: "remember this" });
    await omp!.waitFor("the end of the run", (f) => f.type === "agent_end", 0, 60_000);
    const sessions = join(launch.agentDir, "sessions");
    const files = readdirSync(sessions, { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
    assert.ok(files.length > 0, `a session file in ${sessions}: ${JSON.stringify(readdirSync(sessions, { recursive: true }))}\n${omp!.stderr.slice(-800)}`);
    const said = JSON.stringify(omp!.frames);
    assert.doesNotMatch(said, /Session persistence failed|native file lock/, said.slice(0, 800));
  });

  it("a stream unix socket to the host's abstract one is still refused in that sandbox; a datagram one may be made", async function () {
    const name = `pi-omp-stream-${process.pid}`;
    const server = `import socket\nsrv=socket.socket(socket.AF_UNIX)\nsrv.bind("\\0${name}")\nsrv.listen(8)\nprint("ready",flush=True)\nwhile True:\n  c,_=srv.accept()\n  c.sendall(b"hello\\n")\n  c.close()\n`;
    listener = spawn("python3", ["-c", server], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) => listener!.stdout?.once("data", () => resolve()));
    const probe = await probeSandbox(process.env);
    const client = [
      "import socket",
      "try:",
      "  s = socket.socket(socket.AF_UNIX)",
      `  s.connect("\\0${name}")`,
      "  print('GOT:' + s.recv(10).decode())",
      "except OSError as e:",
      "  print('stream refused:', e)",
      "d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)",
      "print('datagram made')",
    ].join("\n");
    const wrapped = sandbox.wrap(probe as Extract<typeof probe, { ok: true }>, ["python3", "-c", client], launch.cwd);
    let output: string;
    try {
      output = execFileSync(wrapped.file, wrapped.args, { encoding: "utf8", env: { ...process.env, ...launch.env } });
    } finally {
      wrapped.release();
    }
    assert.doesNotMatch(output, /GOT:/, output);
    assert.match(output, /stream refused:.*not permitted/i, output);
    assert.match(output, /datagram made/, output);
  });
});

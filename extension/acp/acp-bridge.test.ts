/**
 * The bridge against an ACP agent of our own making (the SDK's agent app, in process, over NDJSON
 * byte streams): what a hostile or confused agent may ask of the client.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { AcpBridge } from "./acp-bridge";
import type { AcpBridgeOptions } from "./acp-bridge-options";

type AgentScript = (client: Acp.AgentContext, sessionId: string) => Promise<void>;

async function connect(script: AgentScript, options: Partial<AcpBridgeOptions> & { cwd: string }) {
  const acp = (await import("@agentclientprotocol/sdk")) as typeof Acp;
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  let declared: Acp.ClientCapabilities | undefined;
  acp.agent()
    .onRequest("initialize", ({ params }) => ((declared = params.clientCapabilities), { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest("session/new", () => ({ sessionId: "s1" }))
    .onRequest("session/prompt", async (ctx) => (await script(ctx.client, ctx.params.sessionId), { stopReason: "end_turn" as const }))
    .connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  const frames: Record<string, unknown>[] = [];
  const writes: string[] = [];
  const bridge = new AcpBridge(acp, (f) => frames.push(f as Record<string, unknown>), {
    agentName: "test agent",
    files: { readTextFile: async (p) => fs.readFileSync(p, "utf8"), writeTextFile: async (p, c) => (writes.push(p), fs.writeFileSync(p, c)) },
    ...options,
  });
  await bridge.connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  const run = async () => {
    bridge.receive({ type: "prompt", id: "p", message: "go" });
    for (let i = 0; i < 200 && !frames.some((f) => f.type === "agent_settled"); i++) await new Promise((r) => setTimeout(r, 10));
  };
  return { bridge, frames, writes, run, declared: () => declared };
}

describe("ACP bridge: what an agent may ask of the client", function () {
  this.timeout(20_000);
  let root: string;
  let workspace: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-bridge-")));
    workspace = path.join(root, "workspace");
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(root, "secret.txt"), "SECRET");
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("fs/* outside the workspace is refused: absolute paths, ../ and a symlink leading out", async () => {
    fs.symlinkSync(root, path.join(workspace, "link"));
    const outcomes: string[] = [];
    const attempt = async (what: string, call: () => Promise<unknown>) => {
      try {
        const result = await call();
        outcomes.push(`${what}: allowed ${JSON.stringify(result)}`);
      } catch (error) {
        outcomes.push(`${what}: refused`);
        assert.match(JSON.stringify(error), /outside the workspace/);
      }
    };
    const { run, writes } = await connect(async (client, sessionId) => {
      await attempt("read abs", () => client.request("fs/read_text_file", { sessionId, path: path.join(root, "secret.txt") }));
      await attempt("read dotdot", () => client.request("fs/read_text_file", { sessionId, path: path.join(workspace, "..", "secret.txt") }));
      await attempt("read link", () => client.request("fs/read_text_file", { sessionId, path: path.join(workspace, "link", "secret.txt") }));
      await attempt("write abs", () => client.request("fs/write_text_file", { sessionId, path: path.join(root, "evil.txt"), content: "x" }));
      await attempt("write link", () => client.request("fs/write_text_file", { sessionId, path: path.join(workspace, "link", "evil2.txt"), content: "x" }));
      await attempt("write relative", () => client.request("fs/write_text_file", { sessionId, path: "relative.txt", content: "x" }));
      await attempt("write inside", () => client.request("fs/write_text_file", { sessionId, path: path.join(workspace, "ok.txt"), content: "fine" }));
    }, { cwd: workspace });
    await run();
    assert.deepEqual(outcomes, ["read abs: refused", "read dotdot: refused", "read link: refused", "write abs: refused", "write link: refused", "write relative: refused", "write inside: allowed {}"]);
    assert.deepEqual(writes, [path.join(workspace, "ok.txt")]);
    assert.equal(fs.existsSync(path.join(root, "evil.txt")), false);
    assert.equal(fs.existsSync(path.join(root, "evil2.txt")), false);
  });

  it("a sandboxed agent cannot write through the editor what its sandbox keeps read-only (.git, .vscode, … at any depth)", async () => {
    const tried: string[] = [];
    const script = (files: string[]): AgentScript => async (client, sessionId) => {
      for (const file of files) {
        await client.request("fs/write_text_file", { sessionId, path: path.join(workspace, file), content: "x" }).then(() => tried.push(`${file}: written`), (error: unknown) => {
          assert.match(JSON.stringify(error), /protected/);
          tried.push(`${file}: refused`);
        });
      }
    };
    const files = [".git/hooks/pre-commit", ".vscode/tasks.json", "packages/app/.github/workflows/ci.yml", "sub/.npmrc", "sub/.GIT./config", "src/ok.ts"];
    for (const dir of ["src", ".git/hooks", ".vscode", "packages/app/.github/workflows", "sub"]) fs.mkdirSync(path.join(workspace, dir), { recursive: true });
    const sandboxed = await connect(script(files), { cwd: workspace, sandboxed: true });
    await sandboxed.run();
    assert.deepEqual(tried, [".git/hooks/pre-commit: refused", ".vscode/tasks.json: refused", "packages/app/.github/workflows/ci.yml: refused", "sub/.npmrc: refused", "sub/.GIT./config: refused", "src/ok.ts: written"]);
    sandboxed.bridge.dispose();
    tried.length = 0;
    // Not sandboxed, the agent could write them itself: served (after its own question).
    const open = await connect(script([".vscode/tasks.json"]), { cwd: workspace });
    await open.run();
    assert.deepEqual(tried, [".vscode/tasks.json: written"]);
  });

  it("an agent in a read-only sandbox gets no write through the editor at all", async () => {
    const outcomes: string[] = [];
    const readOnly = await connect(async (client, sessionId) => {
      await client.request("fs/write_text_file", { sessionId, path: path.join(workspace, "src", "notes.txt"), content: "x" }).then(
        () => outcomes.push("written"),
        (error: unknown) => outcomes.push(/read-only/.test(JSON.stringify(error)) ? "refused: read-only" : `refused: ${JSON.stringify(error)}`),
      );
    }, { cwd: workspace, sandboxed: true, readOnly: true });
    await readOnly.run();
    assert.deepEqual(outcomes, ["refused: read-only"]);
    assert.equal(fs.existsSync(path.join(workspace, "src", "notes.txt")), false);
    assert.deepEqual(readOnly.writes, []);
  });

  it("terminal/*: the command's output shows in the card that embeds the terminal, and in the editor's terminal view", async () => {
    const shown: string[] = [];
    let exit: unknown;
    const { run, frames } = await connect(async (client, sessionId) => {
      const { terminalId } = await client.request("terminal/create", { sessionId, command: "printf", args: ["built %s\\n", "ok"] });
      await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "make", kind: "execute", status: "in_progress", content: [{ type: "terminal", terminalId }] } });
      exit = await client.request("terminal/wait_for_exit", { sessionId, terminalId });
      const { output } = await client.request("terminal/output", { sessionId, terminalId });
      await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" } });
      await client.request("terminal/release", { sessionId, terminalId });
      shown.push(`agent read: ${output}`);
    }, { cwd: workspace, terminalView: { created: (id, command) => shown.push(`created ${id}: ${command}`), output: (id, text) => shown.push(`view ${id}: ${text}`), exited: (id, code) => shown.push(`exit ${id}: ${code}`) } });
    await run();
    assert.deepEqual(exit, { exitCode: 0, signal: null });
    assert.deepEqual(shown, ["created term-1: printf built %s\\n ok", "view term-1: built ok\n", "exit term-1: 0", "agent read: built ok\n"]);
    const end = frames.find((f) => f.type === "tool_execution_end") as { result: { content: { text: string }[] } } | undefined;
    assert.ok(end?.result.content.some((c) => c.text === "built ok\n"), `the card shows the output: ${JSON.stringify(end)}`);
  });

  it("an output flood reaches the card as a few bounded updates (the editor's terminal gets every chunk)", async () => {
    let viewBytes = 0;
    const { run, frames } = await connect(async (client, sessionId) => {
      await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "flood", kind: "execute", status: "in_progress", content: [] } });
      // 20 MB in 4 KB writes, the agent asking to keep all of it.
      const { terminalId } = await client.request("terminal/create", { sessionId, command: "node", args: ["-e", "const b = 'y'.repeat(4095) + '\\n'; for (let i = 0; i < 5120; i++) process.stdout.write(b)"], outputByteLimit: 1e12 });
      await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call_update", toolCallId: "t1", content: [{ type: "terminal", terminalId }] } });
      await client.request("terminal/wait_for_exit", { sessionId, terminalId });
      await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" } });
    }, { cwd: workspace, terminalView: { created: () => undefined, output: (_id, chunk) => (viewBytes += chunk.length), exited: () => undefined } });
    const started = Date.now();
    await run();
    const ms = Date.now() - started;
    const cards = frames.filter((f) => f.type === "tool_execution_update" || f.type === "tool_execution_end");
    const sizes = cards.map((f) => JSON.stringify(f).length);
    console.log(`      20 MB of output: ${cards.length} card updates (largest ${Math.max(...sizes)} chars) in ${ms} ms`);
    assert.equal(viewBytes, 20 * 1024 * 1024, "the editor's terminal got all of it");
    assert.ok(cards.length <= ms / 100 + 5, `${cards.length} card updates in ${ms} ms`);
    assert.ok(Math.max(...sizes) < 70_000, "each card holds the end of the output only");
    const end = frames.find((f) => f.type === "tool_execution_end") as { result: { content: { text: string }[] } };
    assert.match(end.result.content.at(-1)!.text, /^…\n[^]*y\n$/, "the result shows the output's end, said to be cut");
  });

  it("Abort kills the commands the agent runs through our terminals", async () => {
    let killedBy: unknown;
    const { bridge, frames } = await connect(async (client, sessionId) => {
      const { terminalId } = await client.request("terminal/create", { sessionId, command: "sleep 30" });
      killedBy = await client.request("terminal/wait_for_exit", { sessionId, terminalId });
    }, { cwd: workspace });
    bridge.receive({ type: "prompt", id: "p", message: "go" });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    bridge.receive({ type: "abort", id: "a" });
    for (let i = 0; i < 300 && !frames.some((f) => f.type === "agent_settled"); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(Date.now() - started < 3000, "the run ended at once");
    assert.deepEqual(killedBy, { exitCode: null, signal: "SIGKILL" });
    assert.ok(frames.some((f) => f.type === "agent_settled" && f.aborted === true));
  });

  it("updates of another session are not shown", async () => {
    const { run, frames } = await connect(async (client) => {
      await client.notify("session/update", { sessionId: "other", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "injected" } } });
      await client.notify("session/update", { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "mine" } } });
    }, { cwd: workspace });
    await run();
    const text = JSON.stringify(frames.filter((f) => f.type === "message_update"));
    assert.match(text, /mine/);
    assert.doesNotMatch(text, /injected/);
  });

  it("terminals are offered only when the agent is not sandboxed: ours would run outside its sandbox", async () => {
    const open = await connect(async () => undefined, { cwd: workspace });
    assert.equal(open.declared()?.terminal, true);
    open.bridge.dispose();
    let ran = false;
    const sandboxed = await connect(async (client, sessionId) => {
      await client.request("terminal/create", { sessionId, command: "touch", args: [path.join(root, "escaped")] }).then(() => (ran = true), () => undefined);
    }, { cwd: workspace, sandboxed: true });
    assert.equal(sandboxed.declared()?.terminal, false);
    await sandboxed.run();
    assert.equal(ran, false);
    assert.equal(fs.existsSync(path.join(root, "escaped")), false);
  });
});

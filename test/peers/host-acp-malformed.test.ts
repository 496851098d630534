/**
 * Our host in `--mode acp` fed what a broken or hostile client writes, raw on stdin: lines that
 * are not JSON, a batch, a prototype key, unknown methods and sessions, params of the wrong shape,
 * a line over the size limit. Each gets its JSON-RPC error (or is dropped, for notifications) and
 * the host goes on: a session made afterwards still answers a prompt.
 */
import { strict as assert } from "node:assert";
import { spawn, type ChildProcess } from "node:child_process";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerLaunch } from "../support/peers";

type Reply = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string }; method?: string };

describe("Our host in --mode acp, fed malformed input", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let child: ChildProcess;
  const replies: Reply[] = [];
  let err = "";

  before(async () => {
    assertPeerInstalled("host");
    llm = await startMockLlm();
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    child = spawn(launch.command, launch.args.map((a) => (a === "rpc" ? "acp" : a)), { cwd: launch.cwd, env: launch.env, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    child.stdout!.on("data", (c: Buffer) => {
      buffer += c.toString();
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        replies.push(JSON.parse(buffer.slice(0, nl)) as Reply);
        buffer = buffer.slice(nl + 1);
      }
    });
    child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  });
  after(async () => {
    child.stdin!.end();
    if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
    await llm.close();
    launch.cleanup();
  });

  const send = (line: string) => child.stdin!.write(`${line}\n`);
  async function reply(id: unknown): Promise<Reply> {
    for (let i = 0; i < 400; i++) {
      const found = replies.find((r) => r.id === id && !r.method);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no reply to ${String(id)}; stderr: ${err}`);
  }

  it("answers each bad line with an error and keeps serving", async function () {
    send("not json at all");
    send('[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}]');
    send('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{},"__proto__":{"polluted":true}}}');
    assert.ok((await reply(2)).result, "initialize answered");
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    send('{"jsonrpc":"2.0","id":3,"method":"no/such_method","params":{}}');
    assert.equal((await reply(3)).error?.code, -32601);
    send('{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}');
    assert.match((await reply(4)).error!.message, /not found/i);
    send('{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":42}}');
    assert.equal((await reply(5)).error?.code, -32602);
    send('{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"nope"}}');
    send(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "session/new", params: { cwd: launch.cwd, mcpServers: [] } }));
    const created = await reply(7);
    const sessionId = String(created.result?.sessionId);
    const parseErrors = replies.filter((r) => r.id === null && r.error);
    assert.ok(parseErrors.length >= 2, `the non-JSON line and the batch were answered: ${JSON.stringify(replies.slice(0, 3))}`);
    llm.enqueue({ text: "still fine" });
    send(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hi" }] } }));
    assert.equal((await reply(8)).result?.stopReason, "end_turn");
    assert.equal(child.exitCode, null, "the host is still running");
  });

  it("a line over the SDK's 32 MB limit ends the connection, and the host says why on stderr and exits 1", async function () {
    const other = spawn(launch.command, launch.args.map((a) => (a === "rpc" ? "acp" : a)), { cwd: launch.cwd, env: launch.env, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    other.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    other.stdin!.on("error", () => undefined); // the host stops reading mid-line
    other.stdin!.write(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"${"x".repeat(40 * 1024 * 1024)}"}}\n`);
    const code = await new Promise<number | null>((resolve) => other.once("exit", resolve));
    assert.equal(code, 1);
    assert.match(stderr, /ACP connection closed: .*33554432 byte limit/);
  });
});

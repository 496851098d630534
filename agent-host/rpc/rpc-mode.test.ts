import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient, RpcError } from "../../shared/rpc";

const hostPath = join(resolve(__dirname, "../.."), "dist/agent-host.js");

describe("agent host (dist/agent-host.js --mode rpc), framing and errors", () => {
  let transport: ProcessTransport;
  let client: RpcClient;
  let agentDir: string;
  before(() => {
    assert.ok(existsSync(hostPath), "dist/agent-host.js is missing: run npm run build");
    agentDir = mkdtempSync(join(tmpdir(), "host-agent-dir-"));
  });
  after(() => rmSync(agentDir, { recursive: true, force: true }));
  beforeEach(() => {
    transport = ProcessTransport.spawn(process.execPath, [hostPath, "--mode", "rpc", "--no-session"], { env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } });
    client = new RpcClient(transport);
  });
  afterEach(() => {
    client.dispose();
    transport.dispose();
  });

  it("answers get_state", async () => {
    const state = await client.request("get_state", {});
    assert.equal(state.isStreaming, false);
    assert.match(state.sessionId, /^[0-9a-f-]{36}$/);
  });

  it("answers a bad line with a parse error and keeps serving", async () => {
    const frames: unknown[] = [];
    transport.onFrame((f) => frames.push(f));
    await transport.sendRaw('"valid JSON, not an object"\n{oops\n');
    const state = await client.request("get_state", {});
    assert.ok(state);
    assert.deepEqual(frames.slice(0, 2).map((f) => (f as { command: string; success: boolean }).command), ["parse", "parse"]);
    assert.match((frames[0] as { error: string }).error, /must be a JSON object/);
    assert.match((frames[1] as { error: string }).error, /^Failed to parse command: /);
  });

  it("refuses an unknown command with its id, and an invalid one with the reason", async () => {
    await assert.rejects(
      client.request("branch", { entryId: "x" }),
      (e: RpcError) => e.kind === "failed" && /Invalid entry ID for branching/.test(e.message),
    );
    const invalid = new Promise<Record<string, unknown>>((res) => transport.onFrame((f) => (f as { id?: string }).id === "bad1" && res(f as Record<string, unknown>)));
    await transport.send({ id: "bad1", type: "set_thinking_level", level: "extreme" });
    const answer = await invalid;
    assert.equal(answer.success, false);
    assert.match(String(answer.error), /Invalid set_thinking_level: \/level/);
    const frame = new Promise<Record<string, unknown>>((res) => transport.onFrame((f) => res(f as Record<string, unknown>)));
    await transport.send({ id: "q7", type: "warp_drive" });
    assert.deepEqual(await frame, { id: "q7", type: "response", command: "warp_drive", success: false, error: "Unknown command: warp_drive" });
  });

  it("keeps the todo list of set_todos in get_state, reports it with todo_update, and tells the model", async () => {
    const phases = [{ id: "p1", name: "Work", tasks: [{ id: "t1", content: "do it", status: "pending" as const }] }];
    const update = client.waitFor("todo_update");
    assert.deepEqual(await client.request("set_todos", { phases }), { phases });
    assert.deepEqual((await update).phases, phases);
    assert.deepEqual((await client.request("get_state", {})).todoPhases, phases);
    const { messages } = await client.request("get_messages", {});
    assert.deepEqual(messages.at(-1), { ...messages.at(-1), role: "custom", customType: "plan", content: "The user changed the plan:\nWork:\n  [ ] do it" });
  });

  it("exits with 0 when its input ends", async () => {
    const exit = new Promise((res) => client.onExit(res));
    transport.endInput();
    assert.deepEqual(await exit, { code: 0, signal: null });
  });
});

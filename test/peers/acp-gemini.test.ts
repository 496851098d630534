/**
 * Our ACP client (extension/acp/) driving the real gemini-cli (`--acp`) offline against the
 * scripted Google server, with no VS Code: the chat's RpcClient on the AcpTransport. gemini asks
 * before it reports a tool call, reads the file through fs/read_text_file and writes it through
 * fs/write_text_file: the card starts from the question (with the diff), the read is served from
 * the client's files (the editor's buffers in VS Code), the write by the client.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AcpTransport } from "../../extension/acp/acp-transport";
import type { AcpFileServices } from "../../extension/acp/acp-bridge";
import type { RpcClient } from "../../shared/rpc";
import type { AgentEvent, DialogRequest } from "../../shared/protocol";
import { startAcpPeer, type AcpPeer } from "../support/acp-agents";
import { functionResponses, lastUserText, startMockGoogle, type GoogleTurn, type GoogleRequest, type MockGoogle } from "../support/mock-google";

describe("ACP client with the real gemini-cli (offline)", function () {
  this.timeout(120_000);
  let google: MockGoogle;
  let peer: AcpPeer;
  let cwd: string;
  let transport: AcpTransport;
  let client: RpcClient;
  let events: AgentEvent[];
  let reads: string[];
  let writes: { path: string; content: string }[];
  /** What the client's "editor" holds: a buffer not saved to disk. */
  let buffers: Map<string, string>;
  let decide: (request: GoogleRequest) => GoogleTurn;

  beforeEach(async () => {
    decide = () => ({ text: ["OK"] });
    google = await startMockGoogle((request) => decide(request));
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), "acp-gemini-cwd-"));
    reads = [];
    writes = [];
    buffers = new Map();
    const files: AcpFileServices = {
      readTextFile: async (file) => {
        reads.push(file);
        return buffers.get(file) ?? (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
      },
      writeTextFile: async (file, content) => {
        writes.push({ path: file, content });
        fs.writeFileSync(file, content);
      },
    };
    peer = await startAcpPeer("gemini", google.baseUrl, cwd, files);
    ({ transport, client, events } = peer);
  });

  afterEach(async () => {
    await peer.stop();
    await google.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it("streams the answer and ends the run", async () => {
    decide = () => ({ text: ["Gem", "ini ", "says ", "hi"] });
    await client.request("prompt", { message: "hello" });
    await client.waitForSettled(60_000);
    const deltas = events.flatMap((e) => (e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" ? [e.assistantMessageEvent.delta] : []));
    assert.equal(deltas.join(""), "Gemini says hi");
    assert.ok(events.some((e) => e.type === "agent_end"));
  });

  it("a write: the question shows the whole diff with gemini's own options, the card starts with the file before the write, the file is read from the client's buffer and written by the client", async () => {
    const target = path.join(cwd, "a.txt");
    fs.writeFileSync(target, "on disk\n");
    buffers.set(target, "unsaved line\n");
    decide = (request) => {
      if (functionResponses(request).length > 0) return { text: ["Done."] };
      if (lastUserText(request).includes("write")) return { functionCalls: [{ name: "write_file", args: { file_path: target, content: "unsaved line\nnew line\n" } }] };
      return { text: ["?"] };
    };
    const asked: DialogRequest[] = [];
    let startedBeforeWrite = false;
    client.setDialogHandler(async (request) => {
      asked.push(request);
      startedBeforeWrite = events.some((e) => e.type === "tool_execution_start" && e.toolName === "edit" && (e.args as { path?: string }).path === target) && writes.length === 0;
      return { value: request.method === "select" ? request.options.find((o) => o === "Allow")! : "" };
    });
    await client.request("prompt", { message: "write a.txt" });
    await client.waitForSettled(60_000);
    assert.equal(asked.length, 1);
    const question = asked[0]!;
    assert.ok(question.method === "select");
    assert.deepEqual(question.options, ["Allow for this session", "Allow", "Reject"], "gemini's options as it names them");
    assert.match(question.title, /- unsaved line/, "the diff's old side is the unsaved buffer");
    assert.match(question.title, /\+ new line/);
    assert.ok(startedBeforeWrite, "the card (and so the checkpoint recorder) saw the file before it was written");
    assert.ok(reads.includes(target), "read through fs/read_text_file");
    assert.deepEqual(writes, [{ path: target, content: "unsaved line\nnew line\n" }]);
    const end = events.find((e) => e.type === "tool_execution_end");
    assert.ok(end && end.type === "tool_execution_end" && !end.isError, JSON.stringify(end));
  });

  it("gemini's own modes: listed as it names them; set_mode to Auto Edit and the write is not asked about", async () => {
    const modes = transport.bridge.modes;
    assert.deepEqual(modes?.availableModes.map((m) => m.name), ["Default", "Auto Edit", "YOLO", "Plan"]);
    assert.equal(modes?.currentModeId, "default");
    await transport.bridge.setMode("autoEdit");
    assert.equal(transport.bridge.modes?.currentModeId, "autoEdit");
    await assert.rejects(transport.bridge.setMode("root"), /has no mode root/);
    const target = path.join(cwd, "b.txt");
    decide = (request) => {
      if (functionResponses(request).length > 0) return { text: ["Done."] };
      return { functionCalls: [{ name: "write_file", args: { file_path: target, content: "auto\n" } }] };
    };
    const asked: DialogRequest[] = [];
    client.setDialogHandler(async (request) => (asked.push(request), { cancelled: true }));
    await client.request("prompt", { message: "write b.txt" });
    await client.waitForSettled(60_000);
    assert.deepEqual(asked, [], "no question in Auto Edit");
    assert.deepEqual(writes, [{ path: target, content: "auto\n" }]);
  });

  it("our queue: a message sent while gemini answers waits for the turn's end, then runs; the run settles once", async () => {
    decide = (request) => (lastUserText(request).includes("first") ? { text: ["one"], delayMs: 1500 } : { text: ["two"] });
    const queues: string[][] = [];
    client.on("queue_update", (e) => queues.push([...e.steering, ...e.followUp]));
    let settledCount = 0;
    client.onSettled(() => settledCount++);
    await client.request("prompt", { message: "first" });
    assert.deepEqual(await client.request("prompt", { message: "second", streamingBehavior: "followUp" }), { disposition: "queued" });
    await client.waitForSettled(60_000);
    assert.deepEqual(queues, [["second"], []]);
    const { messages } = await client.request("get_messages", {});
    assert.deepEqual(messages.map((m) => (m.role === "user" ? `user:${m.content as string}` : m.role)), ["user:first", "assistant", "user:second", "assistant"]);
    assert.equal(settledCount, 1);
  });

  it("clear_queue gives the queued messages back (the chat puts them in the box before Abort)", async () => {
    decide = () => ({ hang: true });
    await client.request("prompt", { message: "busy" });
    await client.request("steer", { message: "s1" });
    await client.request("follow_up", { message: "f1" });
    assert.deepEqual(await client.request("clear_queue", {}), { steering: ["s1"], followUp: ["f1"] });
    const settled = client.waitFor("agent_settled", () => true, 30_000);
    await client.request("abort", {});
    assert.equal((await settled).aborted, true);
  });

  it("Abort while gemini waits for the model: session/cancel ends the run as aborted", async () => {
    decide = () => ({ hang: true });
    await client.request("prompt", { message: "think hard" });
    const deadline = Date.now() + 30_000;
    while (!google.requests.some((r) => r.method === "streamGenerateContent") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const settled = client.waitFor("agent_settled", () => true, 30_000);
    await client.request("abort", {});
    assert.equal((await settled).aborted, true);
    assert.equal((await client.request("get_state", {})).isStreaming, false);
  });
});

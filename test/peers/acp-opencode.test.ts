/**
 * Our ACP client (extension/acp/) driving the real opencode (npm opencode-linux-x64) over ACP,
 * offline against the scripted OpenAI-chat server, with no VS Code: the chat's RpcClient on the
 * AcpTransport, exactly as the supervisor wires it. A streamed answer, Abort, a permission question
 * answered through the dialog handler, and the agent's write served by the client's fs service.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AcpFileServices } from "../../extension/acp/acp-bridge";
import type { RpcClient } from "../../shared/rpc";
import type { AgentEvent, DialogRequest } from "../../shared/protocol";
import { startAcpPeer, type AcpPeer } from "../support/acp-agents";
import { messageText, startMockLlm, toolResultMessages, type MockLlm, type MockTurn, type RecordedRequest } from "../support/mock-llm";

/** Answers by what a request is (opencode's title requests, the turn's tool results), never by order. */
function answerByContent(llm: MockLlm, main: (request: RecordedRequest) => MockTurn): void {
  const decide = (request: RecordedRequest): MockTurn => {
    const system = messageText(request.body.messages[0] ?? { role: "system" });
    if (system.includes("title generator")) return { text: "A title" };
    return main(request);
  };
  llm.enqueue(...Array.from({ length: 40 }, () => decide));
}

function lastUserText(request: RecordedRequest): string {
  return messageText([...request.body.messages].reverse().find((m) => m.role === "user") ?? { role: "user" });
}

describe("ACP client with the real opencode (offline)", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let peer: AcpPeer;
  let cwd: string;
  let client: RpcClient;
  let events: AgentEvent[];
  let writes: { path: string; content: string }[];
  let cardsBeforeWrite: boolean[];

  beforeEach(async () => {
    llm = await startMockLlm();
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), "acp-opencode-cwd-"));
    writes = [];
    cardsBeforeWrite = [];
    const files: AcpFileServices = {
      readTextFile: async (file) => fs.readFileSync(file, "utf8"),
      writeTextFile: async (file, content) => {
        // What the checkpoint recorder and the review need: a card naming the file before the write.
        cardsBeforeWrite.push(events.some((e) => e.type === "tool_execution_start" && (e.toolName === "write" || e.toolName === "edit") && (e.args as { path?: string }).path === file));
        writes.push({ path: file, content });
        fs.writeFileSync(file, content);
      },
    };
    peer = await startAcpPeer("opencode", llm.baseUrl, cwd, files);
    ({ client, events } = peer);
  });

  afterEach(async () => {
    await peer.stop();
    await llm.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it("streams the answer as the chat's text deltas and ends the run with agent_end and agent_settled", async () => {
    answerByContent(llm, () => ({ text: ["Hel", "lo ", "from ", "the ", "mock"] }));
    const state = await client.request("get_state", {});
    assert.ok(state.sessionId.startsWith("ses_"), `an ACP session id: ${state.sessionId}`);
    await client.request("prompt", { message: "say hello" });
    await client.waitForSettled(60_000);
    const deltas = events.flatMap((e) => (e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" ? [e.assistantMessageEvent.delta] : []));
    assert.ok(deltas.length >= 2, `streamed in pieces: ${JSON.stringify(deltas)}`);
    assert.equal(deltas.join(""), "Hello from the mock");
    const end = events.find((e) => e.type === "agent_end");
    assert.ok(end && end.type === "agent_end");
    const answer = end.messages.find((m) => m.role === "assistant");
    assert.ok(answer && answer.role === "assistant" && answer.stopReason === "stop");
    // get_messages answers from the bridge's transcript: the chat restores it after a reload.
    const { messages } = await client.request("get_messages", {});
    assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
  });

  it("Abort sends session/cancel: the model request is dropped and the run settles as aborted", async () => {
    answerByContent(llm, () => ({ kind: "hang" }));
    await client.request("prompt", { message: "take your time" });
    const main = await waitFor(() => llm.requests.find((r) => !messageText(r.body.messages[0] ?? { role: "system" }).includes("title generator")), 30_000);
    const settled = client.waitFor("agent_settled", () => true, 30_000);
    await client.request("abort", {});
    assert.equal((await settled).aborted, true);
    await llm.waitForDone(main.index, 10_000);
    assert.ok(main.aborted, "the agent dropped its model request");
    assert.equal((await client.request("get_state", {})).isStreaming, false);
  });

  it("asks permission through our select dialog with the agent's own options, and serves the write through the client", async () => {
    const target = path.join(cwd, "notes.txt");
    answerByContent(llm, (request) => {
      if (toolResultMessages(request).length > 0) return { text: "Written." };
      if (lastUserText(request).includes("write")) return { toolCalls: [{ name: "write", arguments: { filePath: target, content: "line one\nline two\n" } }] };
      return { text: "?" };
    });
    const asked: DialogRequest[] = [];
    client.setDialogHandler(async (request) => {
      asked.push(request);
      assert.equal(request.method, "select");
      const options = request.method === "select" ? request.options : [];
      const allow = options.find((o) => /allow|once/i.test(o) && !/always/i.test(o)) ?? options[0]!;
      return { value: allow };
    });
    await client.request("prompt", { message: "please write notes.txt" });
    await client.waitForSettled(60_000);
    assert.equal(asked.length, 1, "one question");
    const question = asked[0]!;
    assert.ok(question.method === "select" && question.options.length >= 2, `the agent's options: ${JSON.stringify(question)}`);
    assert.match(question.title, /notes\.txt/);
    assert.deepEqual(writes, [{ path: target, content: "line one\nline two\n" }], "the agent wrote through fs/write_text_file");
    assert.equal(fs.readFileSync(target, "utf8"), "line one\nline two\n");
    assert.deepEqual(cardsBeforeWrite, [true], "a write card named the file before the write");
    const start = events.find((e) => e.type === "tool_execution_start");
    assert.ok(start && start.type === "tool_execution_start", "a tool card started");
    const end = events.find((e) => e.type === "tool_execution_end" && e.toolCallId === start.toolCallId);
    assert.ok(end && end.type === "tool_execution_end" && !end.isError, `the card ended: ${JSON.stringify(end)}`);
  });

  it("a rejected permission leaves the file alone and the run still ends", async () => {
    const target = path.join(cwd, "kept.txt");
    answerByContent(llm, (request) => {
      if (toolResultMessages(request).length > 0) return { text: "Not written." };
      return { toolCalls: [{ name: "write", arguments: { filePath: target, content: "x" } }] };
    });
    client.setDialogHandler(async (request) => {
      const options = request.method === "select" ? request.options : [];
      return { value: options.find((o) => /reject|deny/i.test(o)) ?? options.at(-1)! };
    });
    await client.request("prompt", { message: "write kept.txt" });
    await client.waitForSettled(60_000);
    assert.equal(fs.existsSync(target), false);
    assert.deepEqual(writes, []);
  });

  it("opencode's modes (its config option of category mode) in our mode picker: listed as it names them, plan set through session/set_config_option", async () => {
    const modes = peer.transport.bridge.modeChoice();
    assert.ok(modes, "opencode offers modes");
    assert.equal(modes.current, "build");
    assert.deepEqual(modes.available.map((m) => m.id).sort(), ["build", "plan"]);
    await modes.set("plan");
    assert.equal(peer.transport.bridge.modeChoice()?.current, "plan");
    await assert.rejects(modes.set("root"), /has no mode root/);
  });

  it("opencode's models (its model config option) in our model picker: set_model sends session/set_config_option and the next request uses it", async () => {
    const { models } = await client.request("get_available_models", {});
    assert.ok(models.some((m) => m.id === "mock/mock") && models.some((m) => m.id === "mock/mock-large"), models.map((m) => m.id).join(", "));
    assert.equal((await client.request("get_state", {})).model?.id, "mock/mock");
    const set = await client.request("set_model", { provider: "OpenCode", modelId: "mock/mock-large" });
    assert.equal(set.id, "mock/mock-large");
    assert.equal((await client.request("get_state", {})).model?.id, "mock/mock-large");
    answerByContent(llm, () => ({ text: "from the large one" }));
    await client.request("prompt", { message: "which model?" });
    await client.waitForSettled(60_000);
    const main = llm.requests.filter((r) => lastUserText(r).includes("which model?"));
    assert.ok(main.length > 0);
    assert.equal(main.at(-1)!.body.model, "mock-large");
  });
});

async function waitFor<T>(find: () => T | undefined, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

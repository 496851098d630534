import { strict as assert } from "node:assert";
import { FakeAgent, ok, type Frame } from "../../test/support/fake-agent";
import { RpcClient } from "./client";
import { RpcError } from "./errors";

const state = {
  thinkingLevel: "off", isStreaming: false, isCompacting: false, steeringMode: "all", followUpMode: "all",
  sessionId: "s1", autoCompactionEnabled: true, messageCount: 0, pendingMessageCount: 0,
};

describe("RpcClient against an in-process agent", () => {
  let agent: FakeAgent;
  let client: RpcClient;
  beforeEach(() => {
    agent = new FakeAgent();
    client = new RpcClient(agent.transport, { requestTimeoutMs: 500 });
  });
  afterEach(() => client.dispose());

  it("correlates concurrent responses by id, whatever their order", async () => {
    const a = client.request("get_state", {});
    const b = client.request("get_last_assistant_text", {});
    const [fa, fb] = await Promise.all([agent.next((f) => f.type === "get_state"), agent.next((f) => f.type === "get_last_assistant_text")]);
    assert.notEqual(fa.id, fb.id);
    agent.send(ok(fb, { text: "hello" }));
    agent.send(ok(fa, state));
    assert.deepEqual(await b, { text: "hello" });
    assert.equal((await a).sessionId, "s1");
  });

  it("rejects with the agent's error", async () => {
    agent.responder = (f) => ({ id: f.id, type: "response", command: f.type, success: false, error: "Model not found: x/y" });
    await assert.rejects(client.request("set_model", { provider: "x", modelId: "y" }), (e: RpcError) => e.kind === "failed" && /Model not found/.test(e.message));
  });

  it("times out a query that gets no answer, but not a prompt", async () => {
    await assert.rejects(client.request("get_state", {}), (e: RpcError) => e.kind === "timeout");
    const prompt = client.request("prompt", { message: "hi" });
    const frame = await agent.next((f) => f.type === "prompt");
    await new Promise((r) => setTimeout(r, 600));
    agent.send(ok(frame));
    assert.equal(await prompt, undefined);
  });

  it("settles an unknown command answered without id (pi 0.73, omp)", async () => {
    const pending = client.request("get_tree", {});
    await agent.next((f) => f.type === "get_tree");
    agent.send({ type: "response", command: "get_tree", success: false, error: "Unknown command: get_tree" });
    await assert.rejects(pending, (e: RpcError) => e.kind === "failed" && /Unknown command/.test(e.message));
  });

  it("reports the agent's parse errors", async () => {
    const errors: string[] = [];
    client.onProtocolError((e) => errors.push(e));
    const next = client.request("get_state", {});
    agent.send({ type: "response", command: "parse", success: false, error: "Failed to parse command: Unexpected token" });
    agent.send(ok(await agent.next((f) => f.type === "get_state"), state));
    await next;
    assert.deepEqual(errors, ["The agent could not read a frame we sent: Failed to parse command: Unexpected token"]);
  });

  it("rejects pending requests when the agent exits, with its stderr", async () => {
    const pending = client.request("prompt", { message: "hi" });
    await agent.next((f) => f.type === "prompt");
    agent.exit();
    await assert.rejects(pending, (e: RpcError) => e.kind === "exited" && /exited/.test(e.message));
    await assert.rejects(client.request("get_state", {}), (e: RpcError) => e.kind === "exited");
  });

  it("dispatches typed events and reports frames it cannot read without stopping", async () => {
    const seen: string[] = [];
    const errors: string[] = [];
    client.onEvent((e) => seen.push(e.type));
    client.onProtocolError((e) => errors.push(e));
    const settled = new Promise<void>((resolve) => client.onSettled(resolve));
    agent.sendRaw("this is not json\n");
    agent.send({ type: "agent_start" });
    agent.send({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: "zero" } });
    agent.send({ type: "agent_end", messages: [], willRetry: false });
    agent.send({ type: "agent_settled" });
    await settled;
    assert.deepEqual(seen, ["agent_start", "agent_end", "agent_settled"]);
    assert.equal(errors.length, 2);
    assert.match(errors[0], /Unreadable line/);
    assert.match(errors[1], /message_update/);
  });

  it("answers dialogs through the handler and notices through theirs", async () => {
    const notices: string[] = [];
    client.setNoticeHandler((n) => notices.push(n.method));
    client.setDialogHandler(async (request) => {
      if (request.method === "select") return { value: request.options[1] };
      if (request.method === "confirm") return { confirmed: true };
      return { cancelled: true };
    });
    agent.send({ type: "extension_ui_request", id: "u1", method: "select", title: "Pick", options: ["a", "b"] });
    agent.send({ type: "extension_ui_request", id: "u2", method: "confirm", title: "Sure?", message: "Really?" });
    agent.send({ type: "extension_ui_request", id: "u3", method: "input", title: "Name" });
    agent.send({ type: "extension_ui_request", id: "u4", method: "setStatus", statusKey: "k", statusText: "on" });
    const answers = await Promise.all(["u1", "u2", "u3"].map((id) => agent.next((f) => f.type === "extension_ui_response" && f.id === id)));
    assert.deepEqual(answers.map(({ type: _t, id: _i, ...rest }) => rest), [{ value: "b" }, { confirmed: true }, { cancelled: true }]);
    assert.deepEqual(notices, ["setStatus"]);
  });

  it("expires a dialog at its timeout: cancels the handler and sends nothing", async () => {
    let cancelledByToken = false;
    client.setDialogHandler((_request, token) => new Promise((resolve) => token.onCancellationRequested(() => {
      cancelledByToken = true;
      resolve({ value: "too late" });
    })));
    const outcome = new Promise((resolve) => client.onDialogOutcome((o) => resolve(o.outcome)));
    agent.send({ type: "extension_ui_request", id: "t1", method: "select", title: "Quick", options: ["x"], timeout: 50 });
    assert.deepEqual(await outcome, { expired: true });
    assert.ok(cancelledByToken);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(agent.received.filter((f) => f.type === "extension_ui_response").length, 0);
  });

  it("answers a dialog as cancelled when no handler is installed", async () => {
    agent.send({ type: "extension_ui_request", id: "n1", method: "confirm", title: "?", message: "?" });
    const answer = await agent.next((f) => f.type === "extension_ui_response");
    assert.deepEqual(answer, { type: "extension_ui_response", id: "n1", cancelled: true });
  });

  it("serves host tools: updates, result, error, unknown tool and cancel", async () => {
    client.registerHostTool({ name: "echo", description: "echo", parameters: { type: "object" } }, async (args, ctx) => {
      ctx.update({ content: [{ type: "text", text: "working" }] });
      return { content: [{ type: "text", text: String(args.message) }] };
    });
    client.registerHostTool({ name: "fail", description: "fails", parameters: { type: "object" } }, async () => {
      throw new Error("disk on fire");
    });
    client.registerHostTool({ name: "slow", description: "waits", parameters: { type: "object" } }, (_args, ctx) =>
      new Promise((resolve) => ctx.token.onCancellationRequested(() => resolve({ content: [{ type: "text", text: "stopped" }], isError: true }))),
    );
    agent.responder = (f) => (f.type === "set_host_tools" ? ok(f, { toolNames: ["echo", "fail", "slow"] }) : undefined);
    assert.deepEqual(await client.syncHostTools(), { toolNames: ["echo", "fail", "slow"] });
    const sent = agent.received.find((f) => f.type === "set_host_tools") as Frame & { tools: { name: string }[]; loadMode: string };
    assert.deepEqual(sent.tools.map((t) => t.name), ["echo", "fail", "slow"]);
    assert.equal(sent.loadMode, "essential");

    agent.send({ type: "host_tool_call", id: "h1", toolCallId: "c1", toolName: "echo", arguments: { message: "hi" } });
    agent.send({ type: "host_tool_call", id: "h2", toolCallId: "c2", toolName: "fail", arguments: {} });
    agent.send({ type: "host_tool_call", id: "h3", toolCallId: "c3", toolName: "nope", arguments: {} });
    agent.send({ type: "host_tool_call", id: "h4", toolCallId: "c4", toolName: "slow", arguments: {} });
    const update = await agent.next((f) => f.type === "host_tool_update" && f.id === "h1");
    assert.deepEqual(update.partialResult, { content: [{ type: "text", text: "working" }] });
    const r1 = await agent.next((f) => f.type === "host_tool_result" && f.id === "h1");
    assert.deepEqual(r1, { type: "host_tool_result", id: "h1", result: { content: [{ type: "text", text: "hi" }] } });
    const r2 = await agent.next((f) => f.type === "host_tool_result" && f.id === "h2");
    assert.equal(r2.isError, true);
    assert.match(JSON.stringify(r2.result), /disk on fire/);
    const r3 = await agent.next((f) => f.type === "host_tool_result" && f.id === "h3");
    assert.equal(r3.isError, true);
    assert.match(JSON.stringify(r3.result), /Unknown host tool: nope/);
    agent.send({ type: "host_tool_cancel", id: "x1", targetId: "h4" });
    const r4 = await agent.next((f) => f.type === "host_tool_result" && f.id === "h4");
    assert.equal(r4.isError, true);
  });

  it("treats agent_end without retry as settled for agents that have no agent_settled", async () => {
    client.capabilities = { ...client.capabilities, agentSettled: false };
    let settled = 0;
    client.onSettled(() => settled++);
    const last = client.waitFor("agent_end", (e) => e.willRetry === undefined);
    agent.send({ type: "agent_end", messages: [], willRetry: true });
    agent.send({ type: "agent_end", messages: [] });
    await last;
    assert.equal(settled, 1);
  });
});

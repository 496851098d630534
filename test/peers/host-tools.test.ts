/**
 * Host tools (seed 001) served by the RpcClient to oh-my-pi 18.2.3 and to our host: offered to
 * the model, streamed, failing, and cancelled by abort, with the same frames in the same order.
 */
import { strict as assert } from "node:assert";
import type { CancellationToken } from "vscode-jsonrpc";
import type { AgentEvent, EventOf } from "../../shared/protocol";
import { messageText, startMockLlm, toolNames, toolResultMessages, type MockLlm } from "../support/mock-llm";
import { peerVersion } from "../support/peers";
import { assertCleanProtocol, assertStopsCleanly, deferred, runPrompt, startPeerClient, type PeerClient } from "./peer-client";

const objectParams = (props: Record<string, unknown>) => ({ type: "object", properties: props, required: Object.keys(props) });

const ofType = <K extends AgentEvent["type"]>(events: AgentEvent[], type: K): EventOf<K>[] =>
  events.filter((e): e is EventOf<K> => e.type === type);

for (const kind of ["omp", "host"] as const)
describe(`host tools served to ${kind === "omp" ? `omp ${peerVersion("omp")}` : "our host"}`, function () {
  let llm: MockLlm;
  let peer: PeerClient;
  const calls: { tool: string; args: Record<string, unknown>; toolCallId: string }[] = [];
  const slowStarted = deferred<CancellationToken>();
  const slowCancelled = deferred<void>();

  before(async function () {
    llm = await startMockLlm();
    peer = startPeerClient(kind, llm);
    const { client } = peer;
    client.registerHostTool(
      { name: "host_echo", label: "Host echo", description: "Echoes text back, run by the editor.", parameters: objectParams({ text: { type: "string" } }) },
      async (args, context) => {
        calls.push({ tool: "host_echo", args, toolCallId: context.toolCallId });
        context.update({ content: [{ type: "text", text: "echoing…" }] });
        return { content: [{ type: "text", text: `echo: ${String(args.text)}` }] };
      },
    );
    client.registerHostTool(
      { name: "host_fail", description: "Always fails.", parameters: objectParams({}) },
      async (args, context) => {
        calls.push({ tool: "host_fail", args, toolCallId: context.toolCallId });
        throw new Error("the editor refused");
      },
    );
    client.registerHostTool(
      { name: "host_slow", description: "Waits until cancelled.", parameters: objectParams({}) },
      (args, context) => {
        calls.push({ tool: "host_slow", args, toolCallId: context.toolCallId });
        slowStarted.resolve(context.token);
        return new Promise((_resolve, reject) =>
          context.token.onCancellationRequested(() => {
            slowCancelled.resolve();
            reject(new Error("stopped"));
          }),
        );
      },
    );
    // probe() sends the registered tools (set_host_tools, each with loadMode essential).
    const caps = await client.probe();
    assert.equal(caps.flavor, kind === "omp" ? "omp" : "pi");
    assert.equal(caps.hostTools, true);
    await client.request("set_auto_retry", { enabled: false });
  });

  after(async function () {
    await peer?.stop();
    await llm?.close();
  });

  it("set_host_tools registers the client's tools", async function () {
    const sent = peer.sent.filter((f) => f.type === "set_host_tools");
    assert.equal(sent.length, 1, "probe() synced the tools once");
    // omp 18.2.3 reads loadMode per tool; without it a host tool is only "discoverable".
    const tools = sent[0]!.tools as { name: string; loadMode?: string }[];
    assert.deepEqual(tools.map((t) => [t.name, t.loadMode]), [["host_echo", "essential"], ["host_fail", "essential"], ["host_slow", "essential"]]);
    const result = await peer.client.syncHostTools();
    assert.deepEqual([...result.toolNames].sort(), ["host_echo", "host_fail", "host_slow"]);
  });

  it("the model calls a host tool; its update streams and its result reaches the model", async function () {
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [{ id: "call_echo", name: "host_echo", arguments: { text: "ping" }, argumentChunks: 4 }] }, { text: "echo done" });
    const { events, settledCount } = await runPrompt(peer, "call the host tool");
    assert.equal(settledCount, 1);
    assert.deepEqual(calls.filter((c) => c.tool === "host_echo"), [{ tool: "host_echo", args: { text: "ping" }, toolCallId: "call_echo" }]);

    const [start] = ofType(events, "tool_execution_start");
    assert.equal(start?.toolName, "host_echo");
    assert.equal(start?.toolCallId, "call_echo");
    const updates = ofType(events, "tool_execution_update");
    assert.ok(updates.length >= 1, events.map((e) => e.type).join(","));
    assert.equal(updates[0]!.toolCallId, "call_echo");
    assert.deepEqual(updates[0]!.partialResult.content, [{ type: "text", text: "echoing…" }]);
    const [end] = ofType(events, "tool_execution_end");
    assert.equal(end?.isError, false);
    assert.deepEqual(end?.result.content, [{ type: "text", text: "echo: ping" }]);

    const [first, second] = llm.requests.slice(before);
    assert.ok(first && second, `${llm.requests.length - before} requests`);
    for (const name of ["host_echo", "host_fail", "host_slow"]) assert.ok(toolNames(first).includes(name), toolNames(first).join(","));
    const results = toolResultMessages(second);
    assert.deepEqual(results.map((m) => [m.tool_call_id, messageText(m)]), [["call_echo", "echo: ping"]]);
    const call = peer.received.find((f) => f.type === "host_tool_call" && f.toolName === "host_echo");
    assert.ok(call);
    // omp asks the host to run the tool before it announces it (tool_execution_start); our host does the same.
    const order = peer.received.filter((f) => (f.type === "host_tool_call" || f.type === "tool_execution_start") && f.toolCallId === "call_echo").map((f) => f.type);
    assert.deepEqual(order, ["host_tool_call", "tool_execution_start"]);
    assert.ok(peer.sent.some((f) => f.type === "host_tool_update" && f.id === call.id));
    assert.ok(peer.sent.some((f) => f.type === "host_tool_result" && f.id === call.id && f.isError === undefined));
  });

  it("a host tool that throws gives the model an error result", async function () {
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [{ id: "call_fail", name: "host_fail", arguments: {} }] }, { text: "it failed" });
    const { events, settledCount } = await runPrompt(peer, "call the failing tool");
    assert.equal(settledCount, 1);
    assert.equal(calls.filter((c) => c.tool === "host_fail").length, 1);
    const [end] = ofType(events, "tool_execution_end");
    assert.equal(end?.toolCallId, "call_fail");
    assert.equal(end?.isError, true);
    assert.match(JSON.stringify(end?.result.content), /the editor refused/);
    const toolResult = ofType(events, "message_end").find((e) => e.message.role === "toolResult")?.message;
    assert.ok(toolResult?.role === "toolResult" && toolResult.isError);

    const second = llm.requests[before + 1];
    assert.ok(second, `${llm.requests.length - before} requests`);
    // The request carries the whole conversation: pick this run's tool result.
    const results = toolResultMessages(second).filter((m) => m.tool_call_id === "call_fail");
    assert.equal(results.length, 1);
    assert.match(messageText(results[0]!), /the editor refused/);
  });

  it("abort sends host_tool_cancel, which cancels the running tool's token", async function () {
    llm.enqueue({ toolCalls: [{ id: "call_slow", name: "host_slow", arguments: {} }] });
    const from = peer.received.length;
    const events: AgentEvent[] = [];
    const sub = peer.client.onEvent((e) => events.push(e));
    try {
      const settled = peer.client.waitForSettled(60_000);
      await peer.client.request("prompt", { message: "call the slow tool" });
      const token = await slowStarted.promise;
      assert.equal(token.isCancellationRequested, false);
      await peer.client.request("abort", {});
      await slowCancelled.promise;
      await settled;
      await peer.client.request("get_state", {});
    } finally {
      sub.dispose();
    }
    const call = peer.received.slice(from).find((f) => f.type === "host_tool_call" && f.toolName === "host_slow");
    const cancel = peer.received.slice(from).find((f) => f.type === "host_tool_cancel");
    assert.ok(call && cancel);
    assert.equal(cancel.targetId, call.id);
    const end = ofType(events, "tool_execution_end").find((e) => e.toolCallId === "call_slow");
    assert.equal(end?.isError, true);
    // The cancelled tool still reports its end, as an error the agent no longer waits for.
    const result = peer.sent.find((f) => f.type === "host_tool_result" && f.id === call.id);
    assert.equal(result?.isError, true);
    assert.match(JSON.stringify(result?.result), /Cancelled: stopped/);
    const state = await peer.client.request("get_state", {});
    assert.equal(state.isStreaming, false);
  });

  it("a run after the abort works normally", async function () {
    llm.enqueue({ text: "still here" });
    const { settledCount, events } = await runPrompt(peer, "are you there?");
    assert.equal(settledCount, 1);
    const last = ofType(events, "message_end").at(-1)?.message;
    assert.ok(last?.role === "assistant");
    assert.deepEqual(last.content.map((c) => (c.type === "text" ? c.text : c.type)), ["still here"]);
  });

  it("wrote only frames that pass checkOutbound", function () {
    assertCleanProtocol(peer);
  });

  it("exits with code 0 when its input ends", async function () {
    await assertStopsCleanly(peer);
  });
});

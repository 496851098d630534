/**
 * The RPC client against each real peer over ProcessTransport: capability probe, a streamed run
 * with a tool call, command errors, and the validity of everything the agent wrote.
 */
import { strict as assert } from "node:assert";
import type { AgentEvent, AssistantMessageEvent, CommandType, EventOf } from "../../shared/protocol";
import { AssistantMessageBuilder, RpcError, type AgentCapabilities } from "../../shared/rpc";
import { messageText, startMockLlm, toolNames, toolResultMessages, type MockLlm } from "../support/mock-llm";
import { PEER_KINDS, peerVersion, type PeerKind } from "../support/peers";
import { assertCleanProtocol, assertStopsCleanly, normalizeContent, runPrompt, startPeerClient, type PeerClient } from "./peer-client";

const expectedCapabilities: Record<PeerKind, AgentCapabilities> = {
  pi: { flavor: "pi", hostTools: false, todos: false, interruptMode: false, permissionModes: false, deltaPacing: false, agentSettled: true, sessionTree: true, forkCommand: "fork" },
  "pi-1.5.2": { flavor: "pi", hostTools: false, todos: false, interruptMode: false, permissionModes: false, deltaPacing: false, agentSettled: true, sessionTree: true, forkCommand: "fork" },
  "pi-legacy": { flavor: "pi-legacy", hostTools: false, todos: false, interruptMode: false, permissionModes: false, deltaPacing: false, agentSettled: false, sessionTree: false, forkCommand: "fork" },
  omp: { flavor: "omp", hostTools: true, todos: true, interruptMode: true, permissionModes: false, deltaPacing: false, agentSettled: false, sessionTree: false, forkCommand: "branch" },
  host: { flavor: "pi", hostTools: true, todos: true, interruptMode: true, permissionModes: true, deltaPacing: true, agentSettled: true, sessionTree: true, forkCommand: "fork" },
};

const ofType = <K extends AgentEvent["type"]>(events: AgentEvent[], type: K): EventOf<K>[] =>
  events.filter((e): e is EventOf<K> => e.type === type);

for (const kind of [...PEER_KINDS, "host"] as const) {
  /** Our host speaks current Pi's dialect. */
  const piLike = kind === "pi" || kind === "pi-1.5.2" || kind === "host";
  describe(`RpcClient against ${kind} ${peerVersion(kind)}`, function () {
    let llm: MockLlm;
    let peer: PeerClient;

    before(async function () {
      llm = await startMockLlm();
      peer = startPeerClient(kind, llm);
    });

    after(async function () {
      await peer?.stop();
      await llm?.close();
    });

    it("probe() detects the peer's capabilities", async function () {
      const caps = await peer.client.probe();
      assert.deepEqual(caps, expectedCapabilities[kind]);
      assert.deepEqual(peer.client.capabilities, caps);
      const state = await peer.client.request("get_state", {});
      assert.equal(state.model?.provider, "mock");
      assert.equal(state.model?.id, "mock");
      assert.equal(state.isStreaming, false);
      // No LLM error is scripted in this suite: no retries wanted.
      await peer.client.request("set_auto_retry", { enabled: false });
    });

    it("streams a run with a bash tool call; onSettled fires once; the builder matches message_end", async function () {
      const before = llm.requests.length;
      llm.enqueue(
        { text: ["Let me ", "check."], toolCalls: [{ id: "call_echo", name: "bash", arguments: { command: "echo hi" }, argumentChunks: 3 }] },
        { text: ["Done: ", "hi", " was printed."], usage: { promptTokens: 20, completionTokens: 5 } },
      );

      // One builder as a UI would feed it (snapshots included), one from the deltas alone.
      const builder = new AssistantMessageBuilder();
      const deltasOnly = new AssistantMessageBuilder();
      const built: { built: unknown[]; fromDeltas: unknown[]; final: unknown[] }[] = [];
      const sub = peer.client.onEvent((event) => {
        if (event.type === "message_start") {
          builder.start(event.message);
          deltasOnly.start(event.message);
        } else if (event.type === "message_update") {
          builder.update(event.assistantMessageEvent, event.message);
          const { partial: _snapshot, ...delta } = event.assistantMessageEvent as AssistantMessageEvent & { partial?: unknown };
          deltasOnly.update(delta as AssistantMessageEvent);
        } else if (event.type === "message_end" && event.message.role === "assistant") {
          built.push({
            built: normalizeContent(builder.state?.message.content ?? []),
            fromDeltas: normalizeContent(deltasOnly.state?.message.content ?? []),
            final: normalizeContent(event.message.content),
          });
          builder.end(event.message);
          deltasOnly.end(event.message);
        }
      });
      const { events, settledCount } = await runPrompt(peer, "run echo hi").finally(() => sub.dispose());

      assert.equal(settledCount, 1, "onSettled fires once per run");
      const types = events.map((e) => e.type);
      assert.equal(types.filter((t) => t === "agent_start").length, 1, types.join(","));
      assert.equal(types.filter((t) => t === "agent_end").length, 1, types.join(","));
      assert.equal(types[0], "agent_start");
      assert.equal(types.at(-1), piLike ? "agent_settled" : "agent_end");
      assert.equal(ofType(events, "agent_end")[0]!.willRetry ?? false, false);
      assert.equal(ofType(events, "turn_start").length, 2, "a tool turn and a final turn");
      assert.equal(ofType(events, "turn_end").length, 2);
      assert.ok(types.includes("message_update"));
      for (const type of ["message_start", "message_end"] as const) {
        const roles = ofType(events, type).map((e) => e.message.role).filter((r) => r !== "system");
        assert.deepEqual(roles, ["user", "assistant", "toolResult", "assistant"], `${type} roles`);
      }
      const user = ofType(events, "message_end").find((e) => e.message.role === "user")!.message;
      assert.ok(user.role === "user" && JSON.stringify(user.content).includes("run echo hi"));

      // The builder fed with message_start/update ends where message_end does: from deltas on
      // pi 0.87.1, from the cumulative snapshots (`message`, `partial`) pi 0.73.1 and omp add.
      const updates = ofType(events, "message_update");
      const withSnapshot = updates.filter((e) => e.message !== undefined).length;
      assert.equal(withSnapshot, piLike ? 0 : updates.length, "message_update snapshots");
      assert.equal(built.length, 2);
      for (const { built: b, fromDeltas, final } of built) {
        assert.deepEqual(b, final);
        assert.deepEqual(fromDeltas, final, "the deltas alone rebuild the message");
      }
      assert.deepEqual(built[0]!.final, [
        { type: "text", text: "Let me check." },
        { type: "toolCall", id: "call_echo", name: "bash", arguments: { command: "echo hi" } },
      ]);
      assert.deepEqual(built[1]!.final, [{ type: "text", text: "Done: hi was printed." }]);

      // The tool ran.
      const [start] = ofType(events, "tool_execution_start");
      const [end] = ofType(events, "tool_execution_end");
      assert.ok(start && end, types.join(","));
      assert.equal(start.toolCallId, "call_echo");
      assert.equal(start.toolName, "bash");
      assert.deepEqual(start.args, { command: "echo hi" });
      assert.equal(end.toolCallId, "call_echo");
      assert.equal(end.isError, false);
      const output = end.result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      assert.match(output, /\bhi\b/);
      assert.ok(types.indexOf("tool_execution_start") < types.indexOf("tool_execution_end"));
      const toolResult = ofType(events, "message_end").find((e) => e.message.role === "toolResult")!.message;
      assert.ok(toolResult.role === "toolResult" && toolResult.toolCallId === "call_echo" && !toolResult.isError);

      // The mock LLM offered bash, and got the tool's output back.
      assert.equal(llm.requests.length - before, 2);
      const [first, second] = llm.requests.slice(before);
      assert.ok(toolNames(first!).includes("bash"), toolNames(first!).join(","));
      const results = toolResultMessages(second!);
      assert.equal(results.length, 1);
      assert.equal(results[0]!.tool_call_id, "call_echo");
      assert.match(messageText(results[0]!), /\bhi\b/);
    });

    it("a second run settles once again", async function () {
      llm.enqueue({ text: "again" });
      const { events, settledCount } = await runPrompt(peer, "once more");
      assert.equal(settledCount, 1);
      const last = ofType(events, "message_end").at(-1)!.message;
      assert.ok(last.role === "assistant");
      assert.deepEqual(normalizeContent(last.content), [{ type: "text", text: "again" }]);
      assert.deepEqual(await peer.client.request("get_last_assistant_text", {}), { text: "again" });
    });

    it("rejects set_model to an unknown model with the agent's message", async function () {
      const error = await peer.client.request("set_model", { provider: "mock", modelId: "no-such-model" }).then(
        () => assert.fail("set_model succeeded"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof RpcError, String(error));
      assert.equal(error.kind, "failed");
      assert.equal(error.command, "set_model");
      assert.equal(error.message, "Model not found: mock/no-such-model");
      const response = [...peer.received].reverse().find((f) => f.type === "response" && f.command === "set_model");
      assert.equal(error.message, response?.error);
      const state = await peer.client.request("get_state", {});
      assert.equal(state.model?.id, "mock", "the model did not change");
    });

    const readError = "The agent could not read a frame we sent";

    it("answers an unreadable line with a parse error and stays usable", async function () {
      const from = peer.received.length;
      await peer.transport.sendRaw("this is not json\n");
      const parseError = await peer.waitForFrame((f) => f.type === "response" && f.success === false, from);
      assert.equal(parseError.command, "parse");
      assert.match(String(parseError.error), /^Failed to parse command: /);
      assert.equal(parseError.id, undefined);
      assert.ok(peer.protocolErrors.some((m) => m.startsWith(readError)), "the client reports the agent's parse error");
      const state = await peer.client.request("get_state", {});
      assert.equal(state.isStreaming, false);
    });

    it("rejects an unknown command, then keeps answering", async function () {
      const unknown = "no_such_command" as CommandType;
      const from = peer.received.length;
      const error = await peer.client.request(unknown, {} as never, { timeoutMs: 15_000 }).then(
        () => assert.fail("an unknown command succeeded"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof RpcError, String(error));
      assert.equal(error.kind, "failed");
      assert.equal(error.command, "no_such_command");
      assert.match(error.message, /no_such_command/);
      // Pi 0.87.1 echoes the id; Pi 0.73.1 and omp answer an unknown command without it.
      const response = peer.received.slice(from).find((f) => f.type === "response" && f.command === "no_such_command");
      assert.equal(response?.id === undefined, !piLike, JSON.stringify(response));
      await peer.client.request("get_state", {});
    });

    it("wrote only frames that pass checkOutbound", function () {
      // The one protocol error allowed is the agent's answer to the bad line sent on purpose above.
      assertCleanProtocol(peer, (message) => message.startsWith(readError));
    });

    it("exits with code 0 when its input ends", async function () {
      await assertStopsCleanly(peer);
    });
  });
}

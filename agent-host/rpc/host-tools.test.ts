import { strict as assert } from "node:assert";
import { HostToolBridge } from "./host-tools";

const definition = { name: "echo_host", description: "echo", parameters: { type: "object", properties: { message: { type: "string" } } } };
type Sent = { type: string; id: string; targetId?: string; toolName?: string };

describe("HostToolBridge", () => {
  it("sends host_tool_call, streams updates and completes with the result; unknown ids are ignored", async () => {
    const sent: Sent[] = [];
    const bridge = new HostToolBridge((f) => sent.push(f as Sent));
    assert.deepEqual(bridge.set([definition]), ["echo_host"]);
    const [tool] = bridge.tools();
    const updates: unknown[] = [];
    const run = tool.execute("call_1", { message: "hi" }, new AbortController().signal, (u) => updates.push(u));
    const call = sent[0];
    assert.equal(call.type, "host_tool_call");
    assert.equal(call.toolName, "echo_host");
    bridge.receive({ type: "host_tool_result", id: "nope", result: { content: [] } });
    bridge.receive({ type: "host_tool_update", id: call.id, partialResult: { content: [{ type: "text", text: "working" }] } });
    bridge.receive({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text: "hi" }] }, isError: false });
    const result = await run;
    assert.deepEqual(result, { content: [{ type: "text", text: "hi" }], isError: false });
    assert.equal(updates.length, 1);
  });

  it("cancels with host_tool_cancel on abort, and times out a host that never answers", async () => {
    const sent: Sent[] = [];
    const bridge = new HostToolBridge((f) => sent.push(f as Sent), 50);
    bridge.set([definition]);
    const [tool] = bridge.tools();
    const controller = new AbortController();
    const aborted = tool.execute("c1", {}, controller.signal, () => undefined);
    controller.abort();
    const a = await aborted;
    assert.equal(a.isError, true);
    assert.deepEqual(sent.filter((f) => f.type === "host_tool_cancel").map((f) => f.targetId), [sent[0].id]);
    const timedOut = await tool.execute("c2", {}, new AbortController().signal, () => undefined);
    assert.equal(timedOut.isError, true);
    assert.match(JSON.stringify(timedOut.content), /did not answer within/);
    assert.equal(sent.filter((f) => f.type === "host_tool_cancel").length, 2);
  });
});

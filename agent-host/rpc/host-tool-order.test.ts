import * as assert from "node:assert/strict";
import { hostToolCallsFirst } from "./host-tool-order";

const start = (id: string) => ({ type: "tool_execution_start", toolCallId: id });

describe("host_tool_call before its tool_execution_start (as oh-my-pi)", () => {
  it("sends a host tool's call ahead of its start, other frames in order", () => {
    const out: object[] = [];
    const send = hostToolCallsFirst((f) => out.push(f));
    send({ type: "message_end" });
    send(start("a"));
    send({ type: "host_tool_call", id: "host_1", toolCallId: "a" });
    send({ type: "tool_execution_end", toolCallId: "a" });
    assert.deepEqual(out.map((f) => (f as { type: string }).type), ["message_end", "host_tool_call", "tool_execution_start", "tool_execution_end"]);
  });

  it("lets a held start go before any other frame, and at the end of the tick", async () => {
    const out: object[] = [];
    const send = hostToolCallsFirst((f) => out.push(f));
    send(start("b"));
    send({ type: "tool_execution_update", toolCallId: "b" });
    send(start("c"));
    assert.deepEqual(out, [start("b"), { type: "tool_execution_update", toolCallId: "b" }]);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(out.at(-1), start("c"));
  });
});

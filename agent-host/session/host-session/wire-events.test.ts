import { strict as assert } from "node:assert";
import type { AssistantMessage } from "../../ai/types";
import { toWireEvent } from "./wire-events";

const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const message: AssistantMessage = { role: "assistant", content: [{ type: "text", text: "Hel" }], api: "faux", provider: "p", model: "m", usage, stopReason: "pending", timestamp: 1 };
const update = { type: "message_update" as const, message, assistantMessageEvent: { type: "text_delta" as const, contentIndex: 0, delta: "l", partial: message } };

describe("wire events", () => {
  it("send only the delta and the usage on message_update (Pi 0.84+)", () => {
    const wire = toWireEvent(update);
    assert.deepEqual(JSON.parse(JSON.stringify(wire)), { type: "message_update", usage, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "l" } });
  });

  it("add seed 000's cumulative message and partial with --event-snapshots", () => {
    const wire = JSON.parse(JSON.stringify(toWireEvent(update, false, true))) as { message: unknown; assistantMessageEvent: { partial: unknown } };
    assert.deepEqual(wire.message, JSON.parse(JSON.stringify(message)));
    assert.deepEqual(wire.assistantMessageEvent.partial, wire.message);
  });

  it("carry willRetry on agent_end", () => {
    assert.deepEqual(toWireEvent({ type: "agent_end", messages: [] }, true), { type: "agent_end", messages: [], willRetry: true });
  });
});

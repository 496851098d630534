import { strict as assert } from "node:assert";
import type { AgentEvent as WireEvent } from "../../../shared/protocol";
import { Agent } from "../../agent/agent";
import { convertToLlm } from "../../agent/convert-to-llm";
import { stream } from "../../ai/stream";
import { fauxModel } from "../../../test/fixtures/host/compaction";
import { SessionManager } from "../persistence/session-manager";
import { defaultSettings } from "../settings";
import { HostSession } from "./host-session";

function start(script: Parameters<typeof fauxModel>[0], retry = false) {
  const agent = new Agent({ model: fauxModel(script).model, tools: [], stream, convertToLlm });
  const settings = { ...defaultSettings, retry: { ...defaultSettings.retry, enabled: retry, baseDelayMs: 1 } };
  const session = new HostSession({ agent, sessions: new SessionManager({ cwd: "/w" }), settings });
  const events: WireEvent[] = [];
  session.onEvent((e) => events.push(e));
  return { session, events, types: () => events.map((e) => e.type) };
}

describe("HostSession", () => {
  it("waits for what asked to finish before a run settles; a disposed wait is not waited for", async () => {
    const h = start([{ text: "one" }, { text: "two" }]);
    const order: string[] = [];
    const wait = h.session.onBeforeSettle(async () => void order.push("waited"));
    h.session.onEvent((e) => e.type === "agent_settled" && order.push("settled"));
    h.session.prompt("hi");
    await h.session.waitForSettled();
    assert.deepEqual(order, ["waited", "settled"]);
    wait.dispose();
    h.session.prompt("again");
    await h.session.waitForSettled();
    assert.deepEqual(order, ["waited", "settled", "settled"]);
  });

  it("a failure before settling is an error event, not silence, and the run still settles", async () => {
    const h = start([{ text: "one" }]);
    h.session.onBeforeSettle(() => Promise.reject(new Error("handler queue broke")));
    h.session.prompt("hi");
    await h.session.waitForSettled();
    assert.deepEqual(h.events.filter((e) => e.type === "extension_error"), [{ type: "extension_error", extensionPath: "<agent-host>", event: "run", error: "handler queue broke" }]);
    assert.equal(h.types().at(-1), "agent_settled");
    assert.equal(h.session.isStreaming, false);
  });

  it("retries a transient failure with pi's events, then reports the retry's success", async () => {
    const h = start([{ error: "503 Service Unavailable: overloaded" }, { text: "ok" }], true);
    h.session.prompt("hi");
    await h.session.waitForSettled();
    const retry = h.events.filter((e) => e.type === "auto_retry_start" || e.type === "auto_retry_end");
    assert.deepEqual(retry.map((e) => [e.type, "attempt" in e ? e.attempt : undefined, "success" in e ? e.success : undefined]), [["auto_retry_start", 1, undefined], ["auto_retry_end", 1, true]]);
    const ends = h.events.filter((e) => e.type === "agent_end");
    assert.deepEqual(ends.map((e) => e.type === "agent_end" && e.willRetry), [true, false]);
  });
});

// The extension's RPC client under a flood of malformed frames on the agent's stdout: it reports
// each, answers every request that gets a valid response, and keeps working.
import { strict as assert } from "node:assert";
import { RpcClient } from "../../shared/rpc";
import { FakeAgent, type Frame } from "../support/fake-agent";
import { prng } from "./frame-fuzz";

const count = Number(process.env.PI_FUZZ_FRAMES ?? 10_000);

function badAgentFrame(random: () => number, n: number): { text: string; unknown: boolean } {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const options: (() => { text: string; unknown: boolean })[] = [
    () => ({ text: pick(['{"type":"agent_start"', "garbage", "{'a':1}", "\u0000"]), unknown: false }),
    () => ({ text: pick(["1", "[]", "null", '"x"']), unknown: false }),
    () => ({ text: JSON.stringify({ no: "type" }), unknown: false }),
    () => ({ text: JSON.stringify({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: "0", delta: 5 } }), unknown: false }),
    () => ({ text: JSON.stringify({ type: "tool_execution_end", toolCallId: 1 }), unknown: false }),
    () => ({ text: JSON.stringify({ type: "extension_ui_request", id: `u${n}`, method: "select", title: 5, options: "a" }), unknown: false }),
    () => ({ text: JSON.stringify({ type: "extension_ui_request", id: `u${n}`, method: "explode" }), unknown: false }),
    () => ({ text: JSON.stringify({ type: "host_tool_call", id: 3 }), unknown: false }),
    () => ({ text: `{"type":"queue_update","steering":${"[".repeat(5000)}${"]".repeat(5000)},"followUp":[]}`, unknown: false }),
    () => ({ text: JSON.stringify({ type: "message_end", message: { role: "assistant", content: "x".repeat(300_000) } }), unknown: false }),
    () => ({ text: JSON.stringify({ type: `future_event_${n}`, data: "\u2028\u2029" }), unknown: true }),
  ];
  return pick(options)();
}

describe(`RPC client: ${count} malformed frames from the agent`, function () {
  this.timeout(120_000);

  it("reports each bad frame, resolves every answered request and keeps working", async () => {
    const agent = new FakeAgent();
    const client = new RpcClient(agent.transport, { requestTimeoutMs: 60_000 });
    let protocolErrors = 0;
    let unknown = 0;
    client.onProtocolError(() => protocolErrors++);
    client.onUnknownFrame(() => unknown++);
    client.setDialogHandler(async () => ({ cancelled: true }));
    const random = prng(7);
    let expectedErrors = 0;
    let expectedUnknown = 0;
    const requests: Promise<unknown>[] = [];
    const answers: Frame[] = [];
    agent.responder = (frame) => (frame.type === "get_state" ? (answers.push(frame), undefined) : undefined);
    for (let n = 0; n < count; n++) {
      if (random() < 0.1) {
        requests.push(client.request("get_state", {}));
        continue;
      }
      const bad = badAgentFrame(random, n);
      if (bad.unknown) expectedUnknown++;
      else expectedErrors++;
      agent.sendRaw(`${bad.text}\n`);
      if (random() < 0.05 && answers.length > 0) {
        const frame = answers.shift()!;
        agent.send({ id: frame.id, type: "response", command: "get_state", success: true, data: { thinkingLevel: "off", isStreaming: false, isCompacting: false, steeringMode: "all", followUpMode: "all", sessionId: "s", autoCompactionEnabled: true, messageCount: 0 } });
      }
    }
    agent.sendRaw(Buffer.concat([Buffer.from('{"type":"invalid_utf8","text":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}\n')]));
    expectedUnknown++;
    // A record over the client's line limit (32 MiB): dropped with one report, the next still read.
    agent.sendRaw(`{"type":"agent_start","pad":"${"z".repeat(32 * 1024 * 1024)}"}\n`);
    expectedErrors++;
    await new Promise((r) => setTimeout(r, 50));
    for (const frame of answers.splice(0)) agent.send({ id: frame.id, type: "response", command: "get_state", success: true, data: { thinkingLevel: "off", isStreaming: false, isCompacting: false, steeringMode: "all", followUpMode: "all", sessionId: "s", autoCompactionEnabled: true, messageCount: 0 } });
    const settled = await Promise.allSettled(requests);
    const lost = settled.filter((r) => r.status === "rejected").length;
    const state = await Promise.race([client.request("get_state", {}), new Promise((r) => setTimeout(r, 200, "pending"))]);
    console.log(`      figures: frames ${count}, protocol errors reported ${protocolErrors}, unknown types ${unknown}, requests ${requests.length}, lost ${lost}`);
    assert.equal(lost, 0);
    assert.equal(protocolErrors, expectedErrors);
    assert.equal(unknown, expectedUnknown);
    assert.equal(state, "pending", "the client still sends requests (nobody answers this one)");
    assert.equal(client.isClosed, false);
    client.dispose();
  });
});

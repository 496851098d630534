// The RPC client's inbound frames go through the foreign-JSON door (issue #30): a frame whose
// nested objects hold `__proto__`, `constructor` or `prototype` (plain or in unicode escapes) is
// delivered without them, the drop is reported as a protocol error, and nothing reaches a prototype.
import { strict as assert } from "node:assert";
import { FakeAgent } from "../../test/support/fake-agent";
import { RpcClient } from "./client";
import { parsePartialJson } from "./partial-json";
import { assertNoForbiddenKeys } from "../../test/support/inert";

describe("RpcClient: foreign keys in the agent's frames", () => {
  let agent: FakeAgent;
  let client: RpcClient;
  beforeEach(() => {
    agent = new FakeAgent();
    client = new RpcClient(agent.transport, { requestTimeoutMs: 1000 });
  });
  afterEach(() => {
    client.dispose();
    for (const key of ["polluted", "isStreaming", "role"]) assert.equal((Object.prototype as Record<string, unknown>)[key], undefined, `Object.prototype.${key}`);
  });

  const events = [
    `{"type":"message_start","message":{"role":"assistant","content":[],"__proto__":{"polluted":1}}}`,
    `{"type":"message_start","message":{"role":"assistant","content":[{"type":"text","text":"x","\\u005f\\u005fproto__":{"polluted":1}}]}}`,
    `{"type":"message_start","message":{"role":"assistant","content":[],"constructor":{"prototype":{"polluted":1}}}}`,
    `{"type":"message_start","message":{"role":"assistant","content":[]},"__proto__":{"type":"agent_end"},"__proto__":{"polluted":1}}`,
  ];
  for (const line of events) {
    it(`${line}: delivered without the key, and the drop is reported`, async () => {
      const seen: unknown[] = [];
      const errors: string[] = [];
      client.onEvent((e) => seen.push(e));
      client.onProtocolError((e) => errors.push(e));
      const settled = new Promise<void>((resolve) => client.onSettled(resolve));
      agent.sendRaw(`${line}\n`);
      agent.send({ type: "agent_end", messages: [], willRetry: false });
      agent.send({ type: "agent_settled" });
      await settled;
      assert.equal((seen[0] as { type: string }).type, "message_start");
      assertNoForbiddenKeys(seen);
      assert.ok(errors.some((e) => /keys dropped.*key dropped \(it could reach a prototype\)/.test(e)), errors.join("\n"));
    });
  }

  it("a response's data: get_state with __proto__ cannot make the agent look busy", async () => {
    agent.responder = (frame) => {
      if (frame.type !== "get_state") return undefined;
      agent.sendRaw(
        `{"id":${JSON.stringify(frame.id)},"type":"response","command":"get_state","success":true,"data":{"__proto__":{"isStreaming":true},"thinkingLevel":"off","isStreaming":false,"isCompacting":false,"steeringMode":"all","followUpMode":"all","sessionId":"s1","autoCompactionEnabled":true,"messageCount":0,"pendingMessageCount":0}}\n`,
      );
      return undefined;
    };
    const state = await client.request("get_state", {});
    assert.equal(state.isStreaming, false);
    assertNoForbiddenKeys(state);
  });

  it("streamed tool-call arguments (partial JSON) lose the key, whole or cut short", () => {
    for (const text of [`{"path":"a","__proto__":{"polluted":1}}`, `{"path":"a","__proto__":{"polluted":1`, `{"\\u005f\\u005fproto__":{"polluted":1},"path":"a"`]) {
      const args = parsePartialJson(text);
      assert.equal(args.path, "a", text);
      assertNoForbiddenKeys(args);
    }
  });
});

// A model's tool-call arguments are foreign text (a prompt injection can shape them): parsed
// through the foreign-JSON door, so `__proto__`, `constructor` and `prototype` never reach the
// arguments a tool gets, whole or streamed, nor a provider's own decoded arguments.
import { strict as assert } from "node:assert";
import { MessageStreamBuilder } from "./message-stream-builder";
import type { Model, ToolCall } from "./types";
import { assertNoForbiddenKeys } from "../../test/support/inert";

const model = { id: "m", name: "m", api: "openai-completions", provider: "p", baseUrl: "http://x", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 } as Model;

describe("MessageStreamBuilder: foreign keys in tool-call arguments", () => {
  afterEach(() => assert.equal((Object.prototype as Record<string, unknown>).command, undefined));

  for (const raw of [
    `{"command":"ls","__proto__":{"command":"rm -rf ~"}}`,
    `{"\\u005f\\u005fproto__":{"timeout":0},"command":"ls"}`,
    `{"command":"ls","env":{"constructor":{"prototype":{"PATH":"/evil"}}}}`,
    `{"command":"ls","__proto__":{},"__proto__":{"x":1}}`,
  ]) {
    it(`${raw}: the tool gets the arguments without the key`, () => {
      const builder = new MessageStreamBuilder(model);
      builder.start();
      builder.toolCallStart("k", "call-1", "bash");
      builder.toolCallArguments("k", raw.slice(0, 20));
      builder.toolCallArguments("k", raw.slice(20));
      builder.end("k");
      const call = builder.message.content[0] as ToolCall;
      assert.equal(call.arguments.command, "ls");
      assertNoForbiddenKeys(call.arguments);
    });
  }

  it("a provider's decoded arguments object (a clone of its JSON) is made inert too", () => {
    const builder = new MessageStreamBuilder(model);
    builder.start();
    builder.toolCallStart("k", "call-1", "bash");
    builder.end("k", { arguments: JSON.parse(`{"command":"ls","__proto__":{"command":"rm"}}`) as Record<string, unknown> });
    const call = builder.message.content[0] as ToolCall;
    assert.deepEqual(Object.keys(call.arguments), ["command"]);
  });
});

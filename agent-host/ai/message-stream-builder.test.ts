import { strict as assert } from "node:assert";
import { MessageStreamBuilder } from "./message-stream-builder";
import type { AssistantMessageEvent, Model, ToolCall } from "./types";

const model: Model = {
  id: "m", name: "m", api: "faux", provider: "faux", baseUrl: "", reasoning: false, input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 1000,
};

describe("AssistantMessageEventStream: a reader behind the provider", () => {
  it("hands over a long backlog in linear time (300,000 events pushed before the reader reads)", async () => {
    const builder = new MessageStreamBuilder(model);
    builder.start();
    builder.toolCallStart("k", "call_1", "write");
    for (let i = 0; i < 300_000; i++) builder.toolCallArguments("k", i === 0 ? '{"content":"' : "x");
    builder.end("k");
    builder.finish("toolUse");
    const t0 = performance.now();
    let count = 0;
    for await (const _ of builder.stream) count++;
    const ms = performance.now() - t0;
    assert.equal(count, 300_004);
    // Taking each event from the front of the array was quadratic: ~10 s here.
    assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
  });
});

describe("MessageStreamBuilder: a tool call's streamed arguments", () => {
  it("shows the arguments so far on every delta (as Pi's partial), in O(delta): 2 MB in 20-character deltas", () => {
    const builder = new MessageStreamBuilder(model);
    const events: AssistantMessageEvent[] = [];
    void (async () => {
      for await (const e of builder.stream) events.push(e);
    })();
    builder.start();
    builder.toolCallStart("k", "call_1", "write");
    const content = "line of code;\n".repeat(150_000);
    const text = JSON.stringify({ path: "src/big.ts", content });
    const call = builder.message.content[0] as ToolCall;
    const t0 = performance.now();
    let pathAt = -1;
    for (let i = 0; i < text.length; i += 20) {
      builder.toolCallArguments("k", text.slice(i, i + 20));
      if (pathAt < 0 && call.arguments.path === "src/big.ts") pathAt = i;
      if (i === 100_000) {
        const soFar = call.arguments.content as string;
        assert.ok(soFar.length > 90_000 && content.startsWith(soFar), "the content so far");
      }
    }
    const ms = performance.now() - t0;
    assert.equal(pathAt, 0, "the path shows once its string is read (the first delta holds it)");
    // Re-parsing all the arguments so far per delta (up to 1 MB) took minutes here.
    assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
    builder.end("k");
    assert.deepEqual((builder.message.content[0] as ToolCall).arguments, { path: "src/big.ts", content });
    builder.finish("toolUse");
  });

  it("ends malformed arguments with what parsed before the break, and refused ones with {}", () => {
    const builder = new MessageStreamBuilder(model);
    builder.start();
    builder.toolCallStart("a", "c1", "write");
    builder.toolCallArguments("a", '{"path":"a.txt","content":"x" "oops":1}');
    builder.end("a");
    assert.deepEqual((builder.message.content[0] as ToolCall).arguments, { path: "a.txt", content: "x" });
    builder.toolCallStart("b", "c2", "write");
    builder.toolCallArguments("b", `{"a":${"[".repeat(200)}`);
    builder.toolCallArguments("b", "1");
    builder.end("b");
    assert.deepEqual((builder.message.content[1] as ToolCall).arguments, {});
    builder.finish("toolUse");
  });
});

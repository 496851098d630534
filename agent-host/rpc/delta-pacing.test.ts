import { strict as assert } from "node:assert";
import { pacedDeltas } from "./delta-pacing";

const text = (delta: string, contentIndex = 0, usage = 1) => ({ type: "message_update", usage, assistantMessageEvent: { type: "text_delta", contentIndex, delta } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("streamed deltas paced on the wire", () => {
  it("passes every frame through as it comes at 0 ms (pi's way)", () => {
    const sent: object[] = [];
    const { paced } = pacedDeltas((f) => sent.push(f));
    paced.post(text("a"));
    paced.post(text("b"));
    assert.deepEqual(sent, [text("a"), text("b")]);
  });

  it("joins a block's deltas in a window, with the latest usage, and keeps blocks and other frames in order", async () => {
    const sent: object[] = [];
    const { pacing, paced } = pacedDeltas((f) => sent.push(f), 20);
    paced.post(text("a"));
    paced.post(text("b", 0, 2));
    paced.post(text("c", 0, 3));
    assert.deepEqual(sent, [text("a")], "the first at once, the next held");
    paced.post(text("x", 1));
    assert.deepEqual(sent, [text("a"), text("bc", 0, 3)], "another block sends what is held first");
    paced.post({ type: "message_update", assistantMessageEvent: { type: "text_end", contentIndex: 1, content: "x" } });
    assert.deepEqual(sent.slice(2), [text("x", 1), { type: "message_update", assistantMessageEvent: { type: "text_end", contentIndex: 1, content: "x" } }]);
    paced.post(text("d"));
    await sleep(40);
    assert.deepEqual(sent.at(-1), text("d"), "held, then sent when the window closed");
    pacing.setInterval(0);
    paced.post(text("e"));
    assert.deepEqual(sent.at(-1), text("e"), "0 again: at once");
    paced.dispose();
  });

  it("sends what is held when the interval changes, and the next delta at once", () => {
    const sent: object[] = [];
    const { pacing, paced } = pacedDeltas((f) => sent.push(f), 250);
    paced.post(text("a"));
    paced.post(text("b"));
    assert.deepEqual(sent, [text("a")], "held in a long window (a chat off screen)");
    pacing.setInterval(25);
    assert.deepEqual(sent, [text("a"), text("b")], "what was held leaves with the change");
    paced.post(text("c"));
    assert.deepEqual(sent.at(-1), text("c"), "the long window ended: the next at once");
    paced.post(text("d"));
    assert.deepEqual(sent.at(-1), text("c"), "then windows of the new length");
    paced.dispose();
    assert.deepEqual(sent.at(-1), text("d"));
  });
});

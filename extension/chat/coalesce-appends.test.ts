import * as assert from "node:assert/strict";
import type { ToWebview } from "../../shared/webview-protocol";
import { coalesceAppends } from "./coalesce-appends";

const append = (text: string, key = "a", block = 0): ToWebview => ({ type: "append", key, block, blockType: "text", text });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("streamed text joined on its way to the webview", () => {
  it("sends the first delta at once and joins the next ones of the window", async () => {
    const sent: ToWebview[] = [];
    const stream = coalesceAppends((m) => sent.push(m), 20);
    stream.post(append("a"));
    stream.post(append("b"));
    stream.post(append("c"));
    assert.deepEqual(sent, [append("a")]);
    await sleep(30);
    assert.deepEqual(sent, [append("a"), append("bc")]);
    await sleep(30);
    stream.post(append("d"));
    assert.deepEqual(sent.at(-1), append("d"), "after a quiet window, the next delta goes at once");
    stream.dispose();
  });

  // Each delta after a flush went out at once and opened a window of its own: a steady stream
  // (a delta every 2.5 ms, 8 ms windows) made two posts per window instead of one.
  it("sends a steady stream as one append per window", async () => {
    const sent: ToWebview[] = [];
    const stream = coalesceAppends((m) => sent.push(m), 20);
    const started = performance.now();
    let n = 0;
    while (performance.now() - started < 200) {
      stream.post(append(`${n++} `));
      await sleep(2);
    }
    stream.flush();
    const windows = (performance.now() - started) / 20;
    assert.ok(sent.length <= windows + 2, `${sent.length} posts for ${windows.toFixed(1)} windows`);
    assert.equal(sent.map((m) => (m.type === "append" ? m.text : "")).join(""), Array.from({ length: n }, (_, i) => `${i} `).join(""));
    stream.dispose();
  });

  it("keeps the order: another message or another block sends what is held first", () => {
    const sent: ToWebview[] = [];
    const stream = coalesceAppends((m) => sent.push(m), 1000);
    stream.post(append("x"));
    stream.post(append("y"));
    stream.post(append("z", "a", 1));
    stream.post({ type: "remove", key: "b" });
    stream.post(append("w"));
    stream.flush();
    assert.deepEqual(sent, [append("x"), append("y"), append("z", "a", 1), { type: "remove", key: "b" }, append("w")]);
    stream.dispose();
  });
});

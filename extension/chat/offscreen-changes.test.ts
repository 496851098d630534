import { strict as assert } from "node:assert";
import { OffscreenChanges } from "./offscreen-changes";
import { Transcript } from "./transcript";
import { webviewModel } from "./webview-model.testkit";

describe("a chat off screen", () => {
  it("holds the transcript's changes and brings the webview up to date with one message per entry touched", () => {
    let onScreen = true;
    const webview = webviewModel();
    let offscreen: OffscreenChanges | undefined;
    const transcript = new Transcript((m) => offscreen!.hold(m) || webview.apply(m));
    offscreen = new OffscreenChanges(transcript, () => onScreen);
    transcript.upsert({ key: "u1", kind: "user", text: "hello" });
    transcript.upsert({ key: "a1", kind: "assistant", blocks: [], streaming: true });
    transcript.upsert({ key: "t1", kind: "tool", toolCallId: "1", name: "bash", args: {}, output: "", status: "running" });
    onScreen = false;
    const sent = webview.messages;
    for (let i = 0; i < 4000; i++) transcript.appendBlock("a1", 0, "text", `x${i} `);
    transcript.upsert({ key: "q1", kind: "notice", text: "a question beside the tool" }, "t1");
    transcript.upsert({ key: "n1", kind: "notice", text: "at the end" });
    transcript.remove("u1");
    transcript.update("t1", "tool", { status: "done", output: "ok" });
    transcript.upsert({ key: "n0", kind: "notice", text: "inserted before the end one, after it was added" }, "q1");
    assert.equal(webview.messages, sent, "nothing reaches the webview off screen");
    onScreen = true;
    for (const message of offscreen.flush()) webview.apply(message);
    assert.equal(webview.messages - sent, 6, "one message per entry touched");
    assert.deepEqual(webview.items, transcript.snapshot(), "the webview shows what the transcript holds, in its order");
    assert.equal(offscreen.holding, false);
  });

  it("sends the whole transcript again after a reset off screen", () => {
    let onScreen = false;
    const webview = webviewModel();
    let offscreen: OffscreenChanges | undefined;
    const transcript = new Transcript((m) => offscreen!.hold(m) || webview.apply(m));
    offscreen = new OffscreenChanges(transcript, () => onScreen);
    transcript.replaceAll(() => ["a", "b"].forEach((key) => transcript.upsert({ key, kind: "notice", text: key })));
    transcript.upsert({ key: "c", kind: "notice", text: "c" });
    onScreen = true;
    const messages = offscreen.flush();
    assert.deepEqual(messages.map((m) => m.type), ["reset"]);
    for (const message of messages) webview.apply(message);
    assert.deepEqual(webview.items.map((i) => i.key), ["a", "b", "c"]);
  });
});

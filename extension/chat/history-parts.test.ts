import { strict as assert } from "node:assert";
import type { ToWebview } from "../../shared/webview-protocol";
import { HISTORY_BATCH, HistoryParts, RESET_TAIL } from "./history-parts";
import { Transcript } from "./transcript";
import { webviewModel } from "./webview-model.testkit";

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe("a long conversation sent in parts", () => {
  it("sends the newest entries at once, then the older ones newest first; changes to entries not sent yet go with them", async () => {
    const webview = webviewModel();
    const sent: ToWebview[] = [];
    let parts: HistoryParts | undefined;
    const transcript = new Transcript((m) => parts!.send(m));
    parts = new HistoryParts(transcript, (m) => (sent.push(m), webview.apply(m)));
    const total = 3 * HISTORY_BATCH + RESET_TAIL;
    transcript.replaceAll(() => {
      for (let i = 0; i < total; i++) transcript.upsert({ key: `n${i}`, kind: "notice", text: `entry ${i}` });
    });
    assert.equal(sent.length, 1);
    assert.ok(sent[0]!.type === "reset" && sent[0].items.length === RESET_TAIL && sent[0].items.at(-1)!.key === `n${total - 1}`, "the reset: the newest entries");
    // Meanwhile: an old entry not sent yet changes, another goes, a new one comes at the end.
    transcript.update("n5", "notice", { text: "entry 5, changed before its batch" });
    transcript.remove("n6");
    transcript.upsert({ key: "new", kind: "notice", text: "after the reset" });
    await settle();
    assert.deepEqual(sent.slice(1).map((m) => m.type), ["upsert", "history", "history", "history"], "the new entry at once, then three batches");
    assert.deepEqual(webview.items, transcript.snapshot(), "the webview ends with the whole transcript in order");
    parts.dispose();
  });

  it("drops what was left when another conversation starts; a short one goes whole", async () => {
    const sent: ToWebview[] = [];
    let parts: HistoryParts | undefined;
    const transcript = new Transcript((m) => parts!.send(m));
    parts = new HistoryParts(transcript, (m) => sent.push(m));
    transcript.replaceAll(() => {
      for (let i = 0; i < 5000; i++) transcript.upsert({ key: `a${i}`, kind: "notice", text: "a" });
    });
    transcript.replaceAll(() => transcript.upsert({ key: "b", kind: "notice", text: "b" }));
    await settle();
    assert.deepEqual(sent.map((m) => m.type), ["reset", "reset"], "no batch of the first conversation after the second began");
    parts.dispose();
  });
});

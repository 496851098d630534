import { strict as assert } from "node:assert";
import type { ToWebview } from "../../shared/webview-protocol";
import { ALL_BATCH, HISTORY_BATCH, HistoryParts, RESET_TAIL } from "./history-parts";
import { Transcript } from "./transcript";
import { webviewModel } from "./webview-model.testkit";

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

/** A transcript whose messages go through HistoryParts to `sent` (and a model of the webview). */
function feed() {
  const webview = webviewModel();
  const sent: ToWebview[] = [];
  let parts: HistoryParts | undefined;
  const transcript = new Transcript((m) => parts!.send(m));
  parts = new HistoryParts(transcript, (m) => (sent.push(m), webview.apply(m)));
  const fill = (total: number, prefix = "n") =>
    transcript.replaceAll(() => {
      for (let i = 0; i < total; i++) transcript.upsert({ key: `${prefix}${i}`, kind: "notice", text: `entry ${i}` });
    });
  return { webview, sent, parts, transcript, fill };
}

describe("a long conversation sent in parts", () => {
  it("sends the newest entries and how many are older; nothing more until the webview asks, then a batch per ask, newest first", async () => {
    const { webview, sent, parts, transcript, fill } = feed();
    const total = 3 * HISTORY_BATCH + RESET_TAIL;
    fill(total);
    assert.equal(sent.length, 1);
    const reset = sent[0]!;
    assert.ok(reset.type === "reset" && reset.items.length === RESET_TAIL && reset.items.at(-1)!.key === `n${total - 1}`, "the reset: the newest entries");
    assert.equal(reset.type === "reset" && reset.older, total - RESET_TAIL, "the reset says how many are older");
    await settle();
    assert.equal(sent.length, 1, "no batch the webview did not ask for (it is at the end)");
    // Meanwhile: an old entry not sent yet changes, another goes, a new one comes at the end.
    transcript.update("n5", "notice", { text: "entry 5, changed before its batch" });
    transcript.remove("n6");
    transcript.upsert({ key: "new", kind: "notice", text: "after the reset" });
    assert.deepEqual(sent.slice(1).map((m) => m.type), ["upsert"], "the new entry at once");
    for (let ask = 1; ask <= 3; ask++) {
      parts.older(false);
      const batch = sent.at(-1)!;
      assert.ok(batch.type === "history" && batch.items.length <= HISTORY_BATCH, `ask ${ask}: one batch`);
      assert.equal(batch.older, total - RESET_TAIL - ask * HISTORY_BATCH, `ask ${ask}: how many are left`);
    }
    assert.deepEqual(webview.items, transcript.snapshot(), "the webview ends with the whole transcript in order");
    parts.older(false);
    assert.equal(sent.length, 5, "nothing left to send");
    parts.dispose();
  });

  it("sends all that is left when asked (find), a batch per task", async () => {
    const { webview, sent, parts, transcript, fill } = feed();
    fill(2 * ALL_BATCH + RESET_TAIL + 10);
    parts.older(false);
    parts.older(true);
    assert.equal(sent.length, 3, "the reset, the batch asked for, the first of the rest");
    await settle();
    assert.deepEqual(sent.map((m) => m.type), ["reset", "history", "history", "history"]);
    const last = sent.at(-1)!;
    assert.equal(last.type === "history" && last.older, 0);
    assert.deepEqual(webview.items, transcript.snapshot());
    parts.dispose();
  });

  it("drops what was left when another conversation starts; a short one goes whole", async () => {
    const { sent, parts, fill } = feed();
    fill(5000, "a");
    parts.older(true);
    fill(1, "b");
    await settle();
    parts.older(false);
    assert.deepEqual(sent.map((m) => m.type), ["reset", "history", "reset"], "no batch of the first conversation after the second began");
    assert.equal(sent[2]!.type === "reset" && sent[2].older, undefined, "the short one has nothing older");
    parts.dispose();
  });
});

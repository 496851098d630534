import { strict as assert } from "node:assert";
import type { ToWebview } from "../../shared/webview-protocol";
import { Transcript } from "./transcript";

const keys = (transcript: Transcript) => transcript.snapshot().map((item) => item.key);
const notice = (key: string) => ({ key, kind: "notice" as const, text: key });

describe("Transcript", () => {
  it("keeps its order through inserts after an item, replacements and removals", () => {
    const sent: ToWebview[] = [];
    const transcript = new Transcript((message) => sent.push(message));
    for (const key of ["a", "b", "c"]) transcript.upsert(notice(key));
    transcript.upsert(notice("a1"), "a");
    transcript.upsert(notice("a2"), "a1");
    transcript.upsert(notice("c1"), "c");
    transcript.upsert(notice("x"), "gone"); // an anchor no longer there: at the end
    assert.deepEqual(keys(transcript), ["a", "a1", "a2", "b", "c", "c1", "x"]);
    transcript.upsert({ ...notice("a1"), text: "changed" }, "c"); // a known key stays where it is
    transcript.remove("a");
    transcript.remove("x");
    transcript.remove("c1");
    transcript.upsert(notice("end"));
    transcript.upsert(notice("first-after-a2"), "a2");
    assert.deepEqual(keys(transcript), ["a1", "a2", "first-after-a2", "b", "c", "end"]);
    assert.equal(transcript.length, 6);
    assert.equal(transcript.get("a1", "notice")?.text, "changed");
    assert.deepEqual(sent.filter((m) => m.type === "upsert" && m.after !== undefined).map((m) => m.type === "upsert" && m.item.key), ["a1", "a2", "c1", "first-after-a2"]);
  });

  it("starts again empty after clear and replaceAll", () => {
    const transcript = new Transcript(() => undefined);
    transcript.upsert(notice("a"));
    transcript.clear();
    transcript.upsert(notice("b"), "a");
    assert.deepEqual(keys(transcript), ["b"]);
    transcript.replaceAll(() => ["c", "d"].forEach((key) => transcript.upsert(notice(key))));
    transcript.remove("d");
    transcript.upsert(notice("e"));
    assert.deepEqual(keys(transcript), ["c", "e"]);
  });

  it("gives a snapshot (and so a reset) that stays what it was while the chat streams on, without copying it", () => {
    const transcript = new Transcript(() => {});
    transcript.upsert({ key: "m", kind: "assistant", blocks: [{ type: "text", text: "Hel" }], streaming: true });
    transcript.upsert({ key: "t", kind: "tool", toolCallId: "c", name: "bash", args: {}, output: "a", status: "running" });
    const before = transcript.snapshot();
    const reset = transcript.resetMessage();
    transcript.appendBlock("m", 0, "text", "lo");
    transcript.appendBlock("m", 1, "thinking", "hmm");
    transcript.setOutput("t", "b", false);
    transcript.update("t", "tool", { status: "done" });
    assert.deepEqual(before, [
      { key: "m", kind: "assistant", blocks: [{ type: "text", text: "Hel" }], streaming: true },
      { key: "t", kind: "tool", toolCallId: "c", name: "bash", args: {}, output: "a", status: "running" },
    ]);
    assert.deepEqual(reset.type === "reset" && reset.items, before);
    assert.deepEqual(transcript.get("m", "assistant")?.blocks, [{ type: "text", text: "Hello" }, { type: "thinking", text: "hmm" }]);
    assert.equal(transcript.get("t", "tool")?.output, "ab");
    // What holds that up: an item is never changed in place, and a change in place fails loudly.
    const item = transcript.get("t", "tool")!;
    assert.throws(() => Object.assign(item, { output: "changed in place" }), TypeError);
  });
});

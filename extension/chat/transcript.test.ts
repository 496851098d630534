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
});

import { strict as assert } from "node:assert";
import { describeToolCall, permissionQuestion, visible } from "./acp-permission";

const options = [
  { optionId: "a1", name: "Allow", kind: "allow_once" as const },
  { optionId: "a2", name: "Allow", kind: "allow_always" as const },
  { optionId: "r1", name: "Reject", kind: "reject_once" as const },
];

describe("ACP permission as our select question", () => {
  it("offers the agent's options in its order, and two with one name stay two answers", () => {
    const q = permissionQuestion("Gemini CLI", { sessionId: "s", toolCall: { toolCallId: "t", title: "Writing to a.txt", kind: "edit" }, options });
    assert.deepEqual(q.labels, ["Allow", "Allow (allow always)", "Reject"]);
    assert.equal(q.optionOf("Allow"), "a1");
    assert.equal(q.optionOf("Allow (allow always)"), "a2");
    assert.equal(q.optionOf("Reject"), "r1");
    assert.equal(q.optionOf("Allow (forged)"), undefined, "an answer that is no option is no option");
  });

  it("shows the whole diff, every line, and the command", () => {
    const oldText = Array.from({ length: 300 }, (_, i) => `old ${i}`).join("\n");
    const text = describeToolCall({ toolCallId: "t", title: "Edit", kind: "edit", content: [{ type: "diff", path: "/w/f.ts", oldText, newText: "new" }], rawInput: { command: "rm -rf build" } });
    assert.match(text, /- old 0\n/);
    assert.match(text, /- old 299\n/);
    assert.match(text, /\+ new/);
    assert.match(text, /\$ rm -rf build/);
  });

  it("foreign text cannot hide or forge: control, bidi and zero-width characters are shown escaped", () => {
    const title = "run ls\u001b[2K\rAllow everything\u202e\u200b";
    const q = permissionQuestion("agent\u0007", { sessionId: "s", toolCall: { toolCallId: "t", title }, options: [{ optionId: "x", name: "Al\u200blow\u202e", kind: "allow_once" }] });
    assert.doesNotMatch(q.title, /[\u0000-\u0009\u000b-\u001f\u202e\u200b]/);
    assert.match(q.title, /\\u001b\[2K\\u000dAllow everything\\u202e\\u200b/);
    assert.deepEqual(q.labels, ["Al\\u200blow\\u202e"]);
    assert.equal(q.optionOf(q.labels[0]!), "x");
    assert.equal(visible("tab\tand\nnewline"), "tab\tand\nnewline");
  });

  it("an option with an empty name is offered by its id", () => {
    const q = permissionQuestion("a", { sessionId: "s", toolCall: { toolCallId: "t" }, options: [{ optionId: "only", name: "", kind: "allow_once" }] });
    assert.deepEqual(q.labels, ["only"]);
  });
});

import { strict as assert } from "node:assert";
import type { DialogRequest } from "../../shared/protocol";
import type { ToWebview } from "../../shared/webview-protocol";
import { ChatDialogs } from "./chat-dialogs";
import { Transcript } from "./transcript";

const question = (id: string, toolCallId?: string): DialogRequest => ({ type: "extension_ui_request", id, method: "select", title: `Allow bash: echo ${id}`, options: ["Allow once", "Deny"], ...(toolCallId ? { toolCallId } : {}) });

describe("question cards beside the tool that asks", () => {
  it("puts each question after the first running tool without one, and a question no tool asks at the end", () => {
    const sent: ToWebview[] = [];
    const transcript = new Transcript((m) => sent.push(m));
    let running = ["tool-a", "tool-b"];
    for (const key of ["user-1", "assistant-1", "tool-a", "tool-b"]) transcript.upsert({ key, kind: "notice", text: key });
    const dialogs = new ChatDialogs(transcript, () => undefined, { get runningTools() { return running; }, questionOpen: () => () => undefined });
    const order = () => transcript.snapshot().map((i) => (i.kind === "dialog" ? i.id : i.key));

    dialogs.open(question("q1"), undefined);
    dialogs.open(question("q2"), undefined);
    assert.deepEqual(order(), ["user-1", "assistant-1", "tool-a", "q1", "tool-b", "q2"]);
    const upserts = sent.filter((m) => m.type === "upsert" && m.item.kind === "dialog");
    assert.deepEqual(upserts.map((m) => m.type === "upsert" && m.after), ["tool-a", "tool-b"], "the webview is told where");

    // Both tools still run and have their question: a third question (an extension's) goes last.
    dialogs.open(question("q3"), undefined);
    assert.equal(order().at(-1), "q3");
    // tool-a ended; a new tool runs and asks.
    running = ["tool-b", "tool-c"];
    transcript.upsert({ key: "tool-c", kind: "notice", text: "tool-c" });
    dialogs.open(question("q4"), undefined);
    assert.deepEqual(order().slice(-2), ["tool-c", "q4"]);
    // Indexes stay right after an insertion in the middle: an update lands on its own item.
    transcript.update("tool-b", "notice", { text: "tool-b done" });
    assert.equal(transcript.get("tool-b", "notice")?.text, "tool-b done");
    assert.deepEqual(order(), ["user-1", "assistant-1", "tool-a", "q1", "tool-b", "q2", "q3", "tool-c", "q4"]);
  });

  it("puts a question our host names the call of beside that call, whatever the order of the questions", () => {
    const transcript = new Transcript(() => undefined);
    for (const key of ["tool-a", "tool-b"]) transcript.upsert({ key, kind: "notice", text: key });
    const dialogs = new ChatDialogs(transcript, () => undefined, { runningTools: ["tool-a", "tool-b"], questionOpen: () => () => undefined });
    dialogs.open(question("qb", "b"), undefined);
    dialogs.open(question("qa", "a"), undefined);
    assert.deepEqual(transcript.snapshot().map((i) => (i.kind === "dialog" ? i.id : i.key)), ["tool-a", "qa", "tool-b", "qb"]);
  });
});

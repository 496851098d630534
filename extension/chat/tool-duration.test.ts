import * as assert from "node:assert/strict";
import { CancellationTokenSource } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest } from "../../shared/protocol";
import { ChatDialogs } from "./chat-dialogs";
import { ChatEvents } from "./chat-events";
import { raceDialogs, type DialogSurface } from "./dialog-race";
import { Transcript } from "./transcript";

const permission = (id: string, toolCallId?: string): DialogRequest => ({ type: "extension_ui_request", id, method: "select", title: "Allow edit of a.ts?", options: ["Allow once", "Deny"], ...(toolCallId ? { toolCallId } : {}) });

/** The chat's parts as the controller wires them, on a clock the test moves; a native prompt the test answers by hand. */
function chat(surface: DialogSurface) {
  let now = 1_000;
  const transcript = new Transcript(() => undefined);
  const events = new ChatEvents(transcript, { header: () => undefined }, () => now);
  const dialogs = new ChatDialogs(transcript, () => undefined, events);
  let answerNative: ((answer: DialogAnswer) => void) | undefined;
  const native = () => new Promise<DialogAnswer>((resolve) => (answerNative = resolve));
  const ask = dialogs.aboutTools(raceDialogs(native, dialogs, () => surface, () => now));
  const start = (id: string) => events.apply({ type: "tool_execution_start", toolCallId: id, toolName: "edit", args: { path: "a.ts" } });
  const end = (id: string) => events.apply({ type: "tool_execution_end", toolCallId: id, toolName: "edit", result: { content: [{ type: "text", text: "edited" }] }, isError: false });
  const duration = (id: string) => transcript.get(`tool-${id}`, "tool")?.durationMs;
  return { dialogs, events, ask, start, end, duration, wait: (ms: number) => void (now += ms), answerNative: (answer: DialogAnswer) => answerNative?.(answer) };
}

describe("a tool card's time: the tool's own, without its question's wait", () => {
  const token = new CancellationTokenSource().token;

  it("leaves out the time an edit's permission question waited for an answer on its card", async () => {
    const c = chat("both");
    c.start("e1");
    c.wait(200); // the gates before the question
    const answered = c.ask(permission("q1", "e1"), token); // our host names the call
    c.wait(60_000); // the user reads the diff
    assert.ok(c.dialogs.answer("q1", { value: "Allow once" }));
    assert.deepEqual(await answered, { value: "Allow once" });
    c.wait(300); // the edit itself
    c.end("e1");
    assert.equal(c.duration("e1"), 500);
  });

  it("leaves it out when the question is only native, and when the agent does not name the call (pi: the first running tool asks)", async () => {
    const c = chat("native");
    c.start("e1");
    c.start("e2");
    c.wait(100);
    const answered = c.ask(permission("q1"), token);
    c.wait(30_000);
    c.answerNative({ value: "Allow once" });
    await answered;
    c.wait(50);
    c.end("e1");
    c.end("e2");
    assert.equal(c.duration("e1"), 150, "the asking tool's time stopped while it waited");
    assert.equal(c.duration("e2"), 30_150, "the other tool ran all along");
  });

  it("counts from the last answer when two questions about one call overlap, and still ends a call ended while asked", async () => {
    const c = chat("inline");
    c.start("e1");
    const first = c.ask(permission("q1", "e1"), token);
    c.wait(1_000);
    const second = c.ask(permission("q2", "e1"), token);
    c.wait(1_000);
    c.dialogs.answer("q1", { value: "Allow once" });
    await first;
    c.wait(1_000); // q2 still open: not counted
    c.dialogs.answer("q2", { value: "Allow once" });
    await second;
    c.wait(10);
    c.end("e1");
    assert.equal(c.duration("e1"), 10);

    c.start("e3");
    c.wait(20);
    const open = c.ask(permission("q3", "e3"), token);
    c.wait(5_000);
    c.end("e3"); // aborted while its question was open
    assert.equal(c.duration("e3"), 20);
    c.dialogs.answer("q3", { cancelled: true });
    await open;
    assert.deepEqual(c.events.runningTools, []);
  });
});

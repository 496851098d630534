import * as assert from "node:assert/strict";
import { CancellationTokenSource } from "vscode-jsonrpc";
import { QuestionQueue } from "./question-queue";

/** A question whose UI stays open until `answer` is called. */
function question(shown: string[], id: string) {
  let answer: (value: string) => void = () => undefined;
  const show = () => (shown.push(id), new Promise<string>((resolve) => (answer = resolve)));
  return { show, answer: (value: string) => answer(value) };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("QuestionQueue", () => {
  it("shows one question at a time, the next when the one shown is answered", async () => {
    const queue = new QuestionQueue();
    const shown: string[] = [];
    const a = question(shown, "a");
    const b = question(shown, "b");
    const first = queue.run("a", new CancellationTokenSource().token, a.show, "skipped");
    const second = queue.run("b", new CancellationTokenSource().token, b.show, "skipped");
    await tick();
    assert.deepEqual(shown, ["a"], "the second waits: showing it would hide the first");
    a.answer("A");
    assert.equal(await first, "A");
    await tick();
    assert.deepEqual(shown, ["a", "b"]);
    b.answer("B");
    assert.equal(await second, "B");
  });

  it("never shows a waiting question whose token was cancelled, and brings one forward on request", async () => {
    const queue = new QuestionQueue();
    const shown: string[] = [];
    const [a, b, c] = ["a", "b", "c"].map((id) => question(shown, id));
    const cancelB = new CancellationTokenSource();
    void queue.run("a", new CancellationTokenSource().token, a.show, "skipped");
    const second = queue.run("b", cancelB.token, b.show, "skipped");
    const third = queue.run("c", new CancellationTokenSource().token, c.show, "skipped");
    cancelB.cancel();
    assert.equal(await second, "skipped");
    assert.equal(queue.promote("c"), true);
    assert.equal(queue.promote("gone"), false);
    a.answer("A");
    await tick();
    assert.deepEqual(shown, ["a", "c"], "b was never shown");
    c.answer("C");
    assert.equal(await third, "C");
    assert.equal(queue.waitingCount, 0);
  });
});

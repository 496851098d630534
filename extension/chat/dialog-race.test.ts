import * as assert from "node:assert/strict";
import { CancellationTokenSource, type CancellationToken } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest } from "../../shared/protocol";
import { ChatDialogs } from "./chat-dialogs";
import { raceDialogs, type DialogSurface } from "./dialog-race";
import { Transcript } from "./transcript";

const select: DialogRequest = { type: "extension_ui_request", id: "d1", method: "select", title: "Pick", options: ["a", "b"] };

/** A native handler the test answers by hand; it reports whether its token was cancelled. */
function fakeNative() {
  let answer: ((a: DialogAnswer) => void) | undefined;
  let token: CancellationToken | undefined;
  const handler = (_request: DialogRequest, t: CancellationToken) =>
    new Promise<DialogAnswer>((resolve) => {
      token = t;
      answer = resolve;
      t.onCancellationRequested(() => resolve({ cancelled: true }));
    });
  return { handler, answer: (a: DialogAnswer) => answer?.(a), get closed() { return token?.isCancellationRequested ?? false; }, get shown() { return token !== undefined; } };
}

function setup(surface: DialogSurface = "both") {
  const transcript = new Transcript(() => undefined);
  let revealed = 0;
  const dialogs = new ChatDialogs(transcript, () => revealed++);
  const native = fakeNative();
  const race = raceDialogs(native.handler, dialogs, () => surface);
  const card = () => transcript.snapshot().find((i) => i.kind === "dialog");
  return { transcript, dialogs, native, race, card, revealed: () => revealed };
}
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("dialogs in the chat and natively (first answer wins)", () => {
  it("takes an answer from the card and closes the native prompt", async () => {
    const { dialogs, native, race, card } = setup();
    const result = race(select, new CancellationTokenSource().token);
    await tick();
    assert.ok(native.shown);
    assert.equal(card()?.kind === "dialog" && card()?.state, "open");
    assert.ok(dialogs.answer("d1", { value: "b" }));
    assert.deepEqual(await result, { value: "b" });
    assert.ok(native.closed, "the native quick pick closes");
    const c = card();
    assert.ok(c?.kind === "dialog" && c.state === "answered" && c.answer === "b" && c.via === "inline");
    assert.equal(dialogs.answer("d1", { value: "a" }), false, "a second answer is not taken");
  });

  it("takes a native answer and shows it on the card", async () => {
    const { native, race, card } = setup();
    const result = race({ ...select, method: "confirm", title: "Sure?", message: "Really" } as DialogRequest, new CancellationTokenSource().token);
    await tick();
    native.answer({ confirmed: true });
    assert.deepEqual(await result, { confirmed: true });
    const c = card();
    assert.ok(c?.kind === "dialog" && c.state === "answered" && c.answer === "Yes" && c.via === "native" && c.message === "Really");
  });

  it("keeps the card answerable when the native prompt is dismissed", async () => {
    const { dialogs, native, race, card, revealed } = setup();
    const result = race(select, new CancellationTokenSource().token);
    await tick();
    native.answer({ cancelled: true });
    await tick();
    const c = card();
    assert.ok(c?.kind === "dialog" && c.state === "open" && c.nativeDismissed);
    assert.equal(revealed(), 1);
    dialogs.answer("d1", { value: "a" });
    assert.deepEqual(await result, { value: "a" });
  });

  it("says 'timed out' when the agent's timeout ends the dialog, 'cancelled' when it is withdrawn", async () => {
    const { race, card, native } = setup();
    const source = new CancellationTokenSource();
    const result = race({ ...select, timeout: 30 } as DialogRequest, source.token);
    await tick();
    const open = card();
    assert.ok(open?.kind === "dialog" && typeof open.deadline === "number");
    await new Promise((r) => setTimeout(r, 40));
    source.cancel();
    assert.deepEqual(await result, { cancelled: true });
    assert.ok(native.closed);
    assert.equal(card()?.kind === "dialog" && card()?.state, "timedOut");

    const other = setup();
    const withdrawn = new CancellationTokenSource();
    const second = other.race(select, withdrawn.token);
    await tick();
    withdrawn.cancel();
    await second;
    assert.equal(other.card()?.kind === "dialog" && other.card()?.state, "cancelled");
  });

  it("shows only the native prompt or only the card as the setting says", async () => {
    const nativeOnly = setup("native");
    const a = nativeOnly.race(select, new CancellationTokenSource().token);
    await tick();
    assert.equal(nativeOnly.card(), undefined);
    nativeOnly.native.answer({ value: "a" });
    assert.deepEqual(await a, { value: "a" });

    const inlineOnly = setup("inline");
    const b = inlineOnly.race(select, new CancellationTokenSource().token);
    await tick();
    assert.equal(inlineOnly.native.shown, false);
    inlineOnly.dialogs.answer("d1", { cancelled: true });
    assert.deepEqual(await b, { cancelled: true });
    assert.equal(inlineOnly.card()?.kind === "dialog" && inlineOnly.card()?.state, "cancelled");
  });
});

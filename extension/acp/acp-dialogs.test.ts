import { strict as assert } from "node:assert";
import { PermissionDialogs } from "./acp-dialogs";

const request = {
  sessionId: "s",
  toolCall: { toolCallId: "t", title: "rm -rf build", kind: "execute" as const },
  options: [{ optionId: "ok", name: "Allow", kind: "allow_once" as const }, { optionId: "no", name: "Reject", kind: "reject_once" as const }],
};

describe("ACP permission questions as select dialogs", () => {
  it("the answer picked becomes the agent's optionId", async () => {
    const sent: Record<string, unknown>[] = [];
    const dialogs = new PermissionDialogs((f) => sent.push(f as Record<string, unknown>));
    const outcome = dialogs.ask("Agent", request, new AbortController().signal);
    assert.equal(sent[0]!.method, "select");
    assert.deepEqual(sent[0]!.options, ["Allow", "Reject"]);
    dialogs.answer(String(sent[0]!.id), { value: "Reject" });
    assert.deepEqual(await outcome, { outcome: { outcome: "selected", optionId: "no" } });
  });

  it("an answer that is none of the options, a cancel, or an answer to no question selects nothing", async () => {
    const sent: Record<string, unknown>[] = [];
    const dialogs = new PermissionDialogs((f) => sent.push(f as Record<string, unknown>));
    const forged = dialogs.ask("Agent", request, new AbortController().signal);
    dialogs.answer("acp-permission-999", { value: "Allow" });
    dialogs.answer(String(sent[0]!.id), { value: "Allow everything" });
    assert.deepEqual(await forged, { outcome: { outcome: "cancelled" } });
    const dismissed = dialogs.ask("Agent", request, new AbortController().signal);
    dialogs.answer(String(sent[1]!.id), { cancelled: true });
    assert.deepEqual(await dismissed, { outcome: { outcome: "cancelled" } });
  });

  it("the agent withdrawing its request (or Abort) cancels the question in the chat too", async () => {
    const sent: Record<string, unknown>[] = [];
    const dialogs = new PermissionDialogs((f) => sent.push(f as Record<string, unknown>));
    const controller = new AbortController();
    const withdrawn = dialogs.ask("Agent", request, controller.signal);
    controller.abort();
    assert.deepEqual(await withdrawn, { outcome: { outcome: "cancelled" } });
    assert.deepEqual(sent[1], { type: "extension_ui_request", id: `${String(sent[0]!.id)}-cancel`, method: "cancel", targetId: sent[0]!.id });
    const aborted = dialogs.ask("Agent", request, new AbortController().signal);
    dialogs.cancelAll();
    assert.deepEqual(await aborted, { outcome: { outcome: "cancelled" } });
    dialogs.answer(String(sent[2]!.id), { value: "Allow" }); // too late: nothing happens
  });
});

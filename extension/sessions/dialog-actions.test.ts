import * as assert from "node:assert/strict";
import { answerForAction, dialogActions } from "./dialog-actions";

describe("dialog actions in a notification", () => {
  const permission = { type: "extension_ui_request" as const, id: "p1", method: "select" as const, title: "Allow bash?", options: ["Allow once", "Allow for this session", "Deny"] };

  it("offers a short select's options as buttons and answers with the one clicked", () => {
    assert.deepEqual(dialogActions(permission), ["Allow once", "Allow for this session", "Deny"]);
    assert.deepEqual(answerForAction(permission, "Deny"), { value: "Deny" });
  });

  it("asks natively for long selects, inputs and editors", () => {
    const long = { ...permission, options: ["a", "b", "c", "d"] };
    assert.deepEqual(dialogActions(long), ["Answer…"]);
    assert.equal(answerForAction(long, "Answer…"), "ask");
    const input = { type: "extension_ui_request" as const, id: "i", method: "input" as const, title: "Name?" };
    assert.deepEqual(dialogActions(input), ["Answer…"]);
  });

  it("answers a confirm with Yes or No", () => {
    const confirm = { type: "extension_ui_request" as const, id: "c", method: "confirm" as const, title: "Sure?", message: "Delete it" };
    assert.deepEqual(dialogActions(confirm), ["Yes", "No"]);
    assert.deepEqual(answerForAction(confirm, "No"), { confirmed: false });
    assert.deepEqual(answerForAction(confirm, "Yes"), { confirmed: true });
  });
});

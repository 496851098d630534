import * as assert from "node:assert/strict";
import { answerForAction, dialogActions } from "./dialog-actions";

describe("dialog actions in a notification", () => {
  const permission = { type: "extension_ui_request" as const, id: "p1", method: "select" as const, title: "Allow bash?", options: ["Allow once", "Allow this exact command for this session", "Deny"] };

  it("offers a select's short options as buttons, the rest behind Answer…, and answers with the one clicked", () => {
    assert.deepEqual(dialogActions(permission), ["Allow once", "Deny", "Answer…"]);
    assert.deepEqual(dialogActions({ ...permission, options: ["Yes", "No", "Later"] }), ["Yes", "No", "Later"]);
    assert.deepEqual(answerForAction(permission, "Deny"), { value: "Deny" });
  });

  it("asks natively for long selects, inputs and editors", () => {
    const long = { ...permission, options: ["a long option number one", "a long option number two"] };
    assert.deepEqual(dialogActions(long), ["Answer…"]);
    assert.equal(answerForAction(long, "Answer…"), "ask");
    const input = { type: "extension_ui_request" as const, id: "i", method: "input" as const, title: "Name?" };
    assert.deepEqual(dialogActions(input), ["Answer…"]);
  });

  it("offers no answer buttons for a question the notification cannot show whole", () => {
    const hidden = { ...permission, title: `Allow bash to run this command?\n${"echo a ".repeat(30)}; echo X > file` };
    assert.deepEqual(dialogActions(hidden), ["Answer…"]);
    assert.deepEqual(dialogActions({ ...permission, title: "Allow bash: ls\u202e" }), ["Answer…"]);
    const confirm = { type: "extension_ui_request" as const, id: "c", method: "confirm" as const, title: "Sure?", message: "x".repeat(100) };
    assert.deepEqual(dialogActions(confirm), ["Answer…"]);
    assert.equal(answerForAction(confirm, "Answer…"), "ask");
  });

  it("answers a confirm with Yes or No", () => {
    const confirm = { type: "extension_ui_request" as const, id: "c", method: "confirm" as const, title: "Sure?", message: "Delete it" };
    assert.deepEqual(dialogActions(confirm), ["Yes", "No"]);
    assert.deepEqual(answerForAction(confirm, "No"), { confirmed: false });
    assert.deepEqual(answerForAction(confirm, "Yes"), { confirmed: true });
  });
});

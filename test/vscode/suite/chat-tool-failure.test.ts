// A failed tool call looks failed: an edit whose oldText does not match shows no diff and no
// "Open diff in editor" (nothing changed), its title is the file, and the agent's error is shown
// as an error, readable, not as the tool's output. A call the user denied is no failure: it did
// not run, by the user's choice, and says so in muted words.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, typePrompt, useChatSuite, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { ui } from "./ui";

const failedEdit = ".item-tool[data-tool='edit'][data-status='error']";

describe("Pi chat: a failed tool looks failed", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("an edit whose oldText does not match: no diff, the error readable, the file as it was", async () => {
    const agent = fixture();
    const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "src/greet.ts");
    const before = fs.readFileSync(file, "utf8");
    agent.llm.enqueue(
      { toolCalls: [{ name: "edit", arguments: { path: "src/greet.ts", edits: [{ oldText: "text that is not in the file", newText: "replacement" }] } }] },
      { text: "The edit failed." },
    );
    await typePrompt("Edit greet.ts");
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "The edit failed.");
    await settled(agent);
    assert.equal(fs.readFileSync(file, "utf8"), before, "the file did not change");
    assert.equal(await chatText("the card's title", `${failedEdit} .tool-summary`), "src/greet.ts");
    await chatText("the status", `${failedEdit} .tool-status[aria-label='failed']`);
    const error = await chatText("the error", `${failedEdit} .tool-error`, (t) => /Could not find/i.test(t));
    assert.match(error, /edit failed/i);
    const card = await ui.webviewText(chatView, failedEdit);
    assert.doesNotMatch(card, /Open diff in editor/);
    assert.doesNotMatch(card, /replacement/, "no diff of a change that did not happen");
    await ui.screenshot("chat-tool-failed-edit");
  });
});

describe("Pi chat: a call the user denied is not shown as failed", function () {
  this.timeout(90_000);
  const fixture = useChatSuiteWith(useBundledHost);

  it("Deny on a command's question: the card says not run, denied by you, in no error's colours", async () => {
    const agent = fixture();
    agent.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "echo never-run" } }] }, { text: "Understood." });
    await typePrompt("Run echo");
    await eventually("the question", async () => (await ui.quickPickItems()).includes("Deny") || undefined);
    await ui.pickQuickPickItem("Deny");
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "Understood.");
    await settled(agent);
    const bash = ".item-tool[data-tool='bash']";
    assert.match(await chatText("the card's state", `${bash} .tool-summary-state`, (t) => /not run/.test(t)), /not run: denied by you/);
    assert.equal(await ui.webviewText(chatView, `${bash}[data-status='error']`).then(() => true, () => false), false, "not shown as an error");
    await ui.screenshot("chat-tool-denied");
  });
});

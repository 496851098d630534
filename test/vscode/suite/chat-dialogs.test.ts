// An extension's dialogs appear in the chat as cards while the native quick pick or input box is
// open: the first answer wins from either place and the other closes; the card then shows the
// answer, "timed out" or "cancelled". A native prompt dismissed with Escape leaves the card open.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const card = (method: string, state = "open") => `.item-dialog[data-method="${method}"][data-state="${state}"]`;
const summary = (text: string) => `.notification-toast:has-text(${JSON.stringify(text)})`;

describe("Pi chat: dialogs as cards", function () {
  this.timeout(90_000);
  const fixture = useChatSuite(() => vscode.commands.executeCommand("notifications.clearAll"));

  it("takes answers from the cards and from native UI, whichever comes first", async () => {
    const agent = fixture();
    const done = agent.api.chat.prompt("/ui-demo");
    // select: answered on the card; the quick pick closes.
    await chatText("the select card", `${card("select")} [data-option="green"]`);
    assert.deepEqual(await ui.quickPickItems(), ["red", "green", "blue"]);
    assert.equal(await ui.webviewText(chatView, `${card("select")} .dialog-title`), "Pick a color");
    // One primary answer, the first; the others quieter (a Deny must not look like an Allow).
    const primary = async (option: string) => String((await ui.webviewProperties(chatView, `${card("select")} [data-option="${option}"]`, ["className"])).className).split(" ").includes("primary");
    assert.deepEqual([await primary("red"), await primary("green"), await primary("blue")], [true, false, false]);
    await ui.screenshot("chat-dialog-open");
    await ui.clickInWebview(chatView, `${card("select")} [data-option="green"]`);
    assert.equal(await chatText("the select answer", `${card("select", "answered")} .dialog-answer`), "green");
    assert.equal(await ui.webviewText(chatView, `${card("select", "answered")} .dialog-via`), "answered here");
    // confirm: the color quick pick has made way for it; answered natively, the card shows it.
    // Its message on the question's line (whole when the line is unfolded).
    await chatText("the confirm card", `${card("confirm")} .dialog-message-line`, (t) => t === "Really proceed?");
    await eventually("the confirm quick pick", async () => (await ui.quickPickItems()).join() === "Yes,No" || undefined);
    await ui.pickQuickPickItem("Yes");
    assert.equal(await chatText("the confirm answer", `${card("confirm", "answered")} .dialog-answer`), "Yes");
    assert.equal(await ui.webviewText(chatView, `${card("confirm", "answered")} .dialog-via`), "answered in VS Code");
    // input: typed on the card; the input box closes.
    await ui.waitForSelector(".quick-input-widget input[placeholder='type here']", "visible");
    await ui.typeInWebview(chatView, `${card("input")} vscode-textfield input`, "Grace");
    await ui.pressKey("Enter");
    assert.equal(await chatText("the input answer", `${card("input", "answered")} .dialog-answer`), "Grace");
    await ui.waitForSelector(".quick-input-widget", "hidden");
    // editor: submitted from the card with its prefill; the scratch editor closes.
    await chatText("the editor card", `${card("editor")} vscode-button[data-action="submit"]`);
    await ui.clickInWebview(chatView, `${card("editor")} vscode-button[data-action="submit"]`);
    assert.equal(await chatText("the editor answer", `${card("editor", "answered")} .dialog-answer`), "prefill");
    await ui.waitForSelector(summary('color="green" proceed=true name="Grace" text="prefill"'), "visible");
    await eventually("the scratch editor to close", () => !vscode.window.visibleTextEditors.some((e) => e.document.isUntitled && e.document.getText() === "prefill"));
    await done;
    assert.equal(await chatText("the extension's widget", ".widget[data-widget='demo']"), "line1");
    await ui.screenshot("chat-dialogs-answered");
    await settled(agent);
  });

  it("keeps a card answerable after the native prompt is dismissed, and takes a cancel from it", async () => {
    const agent = fixture();
    const done = agent.api.chat.prompt("/ui-demo");
    await eventually("the select quick pick", async () => (await ui.quickPickItems()).includes("blue") || undefined);
    await ui.pressKey("Escape");
    await chatText("the dismissal note", `${card("select")} .dialog-note`);
    await ui.clickInWebview(chatView, `${card("select")} [data-option="blue"]`);
    assert.equal(await chatText("the select answer", `${card("select", "answered")} .dialog-answer`), "blue");
    await ui.clickInWebview(chatView, `${card("confirm")} [data-option="No"]`);
    assert.equal(await chatText("the confirm answer", `${card("confirm", "answered")} .dialog-answer`), "No");
    await ui.waitForSelector(".quick-input-widget input[placeholder='type here']", "visible");
    await ui.inputBoxType("Lin", true);
    assert.equal(await chatText("the native input answer", `${card("input", "answered")} .dialog-answer`), "Lin");
    await ui.clickInWebview(chatView, `${card("editor")} vscode-button[data-action="cancel"]`);
    await chatText("the editor card cancelled", `${card("editor", "cancelled")}`);
    await ui.waitForSelector(summary('color="blue" proceed=false name="Lin" text=undefined'), "visible");
    await done;
    await settled(agent);
  });

  it("shows 'timed out' on the card when the dialog's timeout expires, and closes the quick pick", async () => {
    const agent = fixture();
    const done = agent.api.chat.prompt("/ui-timeout");
    await ui.waitForSelector('.quick-input-widget .quick-input-title:has-text("Quick, pick one")', "visible");
    assert.equal(await chatText("the timed-out card", `${card("select", "timedOut")} .dialog-outcome`), "Timed out");
    await ui.waitForSelector(".quick-input-widget", "hidden", 5000);
    await ui.waitForSelector(summary("timeout: undefined"), "visible");
    await done;
    await ui.screenshot("chat-dialog-timed-out");
    await settled(agent);
  });
});

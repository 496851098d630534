// The walking skeleton as a user meets it: the Pi view, a prompt typed in the chat webview, a
// scripted reply streamed by a real pi 0.87.1, and the agent's dialogs as native quick picks.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { activateExtension, eventually, usePiAgent, type AgentFixture } from "./agent-fixture";
import { requireUi, ui } from "./ui";

const chatView = "Chat";
const activityBarPi = '.activitybar [aria-label^="Pi"]';

describe("Pi chat view (walking skeleton)", function () {
  this.timeout(90_000);
  let agent: AgentFixture;

  before(async function () {
    requireUi(this);
    agent = await usePiAgent();
    // Earlier suites may leave a transcript and a draft: this one starts from an empty chat.
    agent.api.chat.transcript.clear();
    agent.api.chat.post({ type: "setInput", text: "" });
  });
  after(async () => agent?.dispose());

  it("activates and contributes its commands", async () => {
    const api = await activateExtension();
    assert.ok(api.supervisor);
    const commands = await vscode.commands.getCommands(true);
    for (const command of ["pi.focusChat", "pi.sendPrompt", "pi.abort", "pi.restartAgent", "pi.showLog"]) {
      assert.ok(commands.includes(command), `${command} is registered`);
    }
    // pi 0.87.1 cannot use the editor's tools: a note in the tooltip, not an error (the chat says what it means).
    assert.equal(api.supervisor.capabilities?.hostTools, false);
    assert.match(api.status.current?.tooltip ?? "", /cannot use the editor/);
  });

  it("shows the chat view from the activity bar", async () => {
    // A click on the icon of the side bar's current view hides it: start from a closed side bar.
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    await ui.click(activityBarPi);
    const status = await eventually("the chat status line", async () => {
      const text = await ui.webviewText(chatView, "#status");
      return text === "Ready" ? text : undefined;
    });
    assert.equal(status, "Ready");
    await ui.screenshot("chat-view-ready");
  });

  it("streams a scripted reply into the webview when the user types a prompt", async () => {
    const chunks = ["Hello", " from", " the", " scripted", " model."];
    agent.llm.enqueue({ text: chunks, delayMs: 30 });
    await ui.typeInWebview(chatView, "vscode-textarea#prompt textarea", "Say hello");
    await ui.clickInWebview(chatView, "vscode-button#send");

    const reply = await eventually("the assistant reply in the DOM", async () => {
      const text = await ui.webviewText(chatView, '.item-assistant:not([data-streaming="true"]) .text');
      return text === chunks.join("") ? text : undefined;
    });
    assert.equal(reply, "Hello from the scripted model.");
    assert.equal(await ui.webviewText(chatView, ".item-user .text"), "Say hello");
    await eventually("the agent to settle", () => agent.api.supervisor.status === "idle");
    assert.equal(await ui.webviewText(chatView, "#status"), "Ready");
    const sent = agent.llm.requests.at(-1)?.body.messages.at(-1);
    assert.match(JSON.stringify(sent), /Say hello/);
    await ui.screenshot("chat-streamed-reply");
  });

  it("answers an extension's select, confirm and input through native UI, which the agent receives", async () => {
    const done = vscode.commands.executeCommand("pi.sendPrompt", "/ui-demo");
    await eventually("the select quick pick", async () => (await ui.quickPickItems()).includes("green") || undefined);
    assert.deepEqual(await ui.quickPickItems(), ["red", "green", "blue"]);
    await ui.pickQuickPickItem("green");
    await eventually("the confirm quick pick", async () => (await ui.quickPickItems()).includes("Yes") || undefined);
    await ui.pickQuickPickItem("Yes");
    await ui.waitForSelector(".quick-input-widget input[placeholder='type here']", "visible");
    await ui.inputBoxType("Ada", true);
    // The editor request: a document with the prefill, submitted from the editor title's action.
    await eventually("the editor dialog's document", () => agent.api.editorDialogs.documents.some((d) => d.getText() === "prefill"));
    assert.equal(agent.api.status.current?.state, "waiting-for-dialog");
    const submit = '.editor-actions .action-label[aria-label^="Submit to Pi"]';
    await ui.waitForSelector(submit, "visible");
    await ui.screenshot("editor-dialog");
    await ui.click(submit);
    await done;
    await eventually("the scratch editor to close", () => !vscode.window.visibleTextEditors.some((e) => e.document.isUntitled && e.document.getText() === "prefill"));
    const summary = '.notification-toast:has-text("color=\\"green\\" proceed=true name=\\"Ada\\" text=\\"prefill\\"")';
    await ui.waitForSelector(summary, "visible");
    await eventually("the status bar item", () => agent.api.notices.statuses.demo === "ok");
    await ui.screenshot("dialogs-answered");
  });

  it("closes a dialog's quick pick when its timeout expires", async () => {
    await vscode.commands.executeCommand("notifications.clearAll");
    const done = vscode.commands.executeCommand("pi.sendPrompt", "/ui-timeout");
    await ui.waitForSelector('.quick-input-widget .quick-input-title:has-text("Quick, pick one")', "visible");
    await ui.waitForSelector(".quick-input-widget", "hidden", 5000);
    await done;
    await ui.waitForSelector('.notification-toast:has-text("timeout: undefined")', "visible");
  });

  it("aborts a running agent from the abort button", async () => {
    agent.llm.enqueue({ text: ["Working", " on it"], hangAfterChunks: true });
    await ui.typeInWebview(chatView, "vscode-textarea#prompt textarea", "Take your time");
    await ui.clickInWebview(chatView, "vscode-button#send");
    await eventually("the run to start", () => agent.api.supervisor.status === "running");
    await eventually("streamed text", async () => ((await ui.webviewText(chatView, '.item-assistant[data-streaming="true"] .text')) === "Working on it") || undefined);
    await ui.clickInWebview(chatView, "vscode-button#abort");
    await eventually("the agent to settle after abort", () => agent.api.supervisor.status === "idle");
    const last = await ui.webviewText(chatView, ".item:last-child");
    assert.match(last, /Working on it|aborted/i);
  });
});

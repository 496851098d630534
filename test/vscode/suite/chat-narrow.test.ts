// The chat in a side bar dragged to 250 px, the narrowest the chat is made for (#32): nothing runs
// out of the view sideways, the header keeps the model's whole name clear of its buttons, the
// usage clear of Abort, a question's answers inside their card, the mode menu inside the view.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, fitsSideways, numbers, settled, typePrompt, useSideBarWidth, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { ui } from "./ui";

describe("Pi chat in a 250 px side bar", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(useBundledHost);
  const sideBarWidth = useSideBarWidth(250);

  it("keeps the header, the usage, a question and the mode menu inside the view", async () => {
    const agent = fixture();
    await sideBarWidth.narrow();

    agent.llm.enqueue({ text: "hi" });
    await typePrompt("hello");
    await settled(agent);
    agent.llm.enqueue({ text: Array.from({ length: 60 }, (_, i) => `word${i} `), delayMs: 100 });
    await typePrompt("Run for a while");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    await chatText("the usage beside the box", "#footer:not([hidden]) .context-label", () => true);
    await ui.screenshot("chat-250px-running");
    const name = numbers(await ui.webviewProperties(chatView, "#model-picker .model-name", ["scrollWidth", "clientWidth"]));
    assert.ok(name.scrollWidth! <= name.clientWidth!, `the model's whole name shows: ${name.clientWidth}px of ${name.scrollWidth}px`);
    const box = async (selector: string) => (await ui.webviewLayout(chatView, selector)).box;
    const [model, actions, footer, abort] = await Promise.all(["#model", ".header-actions", "#footer", "vscode-button#abort"].map(box));
    assert.ok(model.right <= actions.left + 0.5, `the model and its badges end before the header's buttons: ${model.right} vs ${actions.left}`);
    assert.ok(footer.right <= abort.left + 0.5, `the usage ends before Abort: ${footer.right} vs ${abort.left}`);
    await fitsSideways("running");
    await ui.clickInWebview(chatView, "vscode-button#abort");
    await settled(agent);

    // A question: every answer inside its card.
    agent.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "echo a-rather-long-command-line --with --several --options" } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "run it");
    await eventually("the question's quick pick", async () => (await ui.quickPickItems()).includes("Allow once") || undefined);
    const card = await box(".item-dialog");
    const answers = await ui.webviewProperties(chatView, ".item-dialog", ["innerText"]);
    await ui.screenshot("chat-250px-question");
    for (const option of ["Allow once", "Allow `echo`", "Deny"]) {
      const button = await box(`.item-dialog [data-option^="${option}"]`);
      assert.ok(button.left >= card.left - 0.5 && button.right <= card.right + 0.5, `"${option}" inside the card: ${JSON.stringify(button)} in ${JSON.stringify(card)} (${String(answers.innerText)})`);
    }
    await fitsSideways("a question open");
    await ui.pickQuickPickItem("Allow once");
    await settled(agent);

    // The permission-mode menu, whole, inside the view.
    await ui.clickInWebview(chatView, ".composer-bar #mode-picker");
    await chatText("the mode menu", '.picker[data-picker="mode-picker"]', (t) => t.includes("Full auto"));
    const list = await ui.webviewLayout(chatView, '.picker[data-picker="mode-picker"]');
    await ui.screenshot("chat-250px-mode-menu");
    assert.ok(list.box.top >= 0 && list.box.bottom <= list.viewport.height && list.box.left >= 0 && list.box.right <= list.viewport.width, `the menu inside the view: ${JSON.stringify(list)}`);
    await ui.pressKey("Escape");
  });
});

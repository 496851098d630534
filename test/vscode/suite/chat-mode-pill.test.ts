// The permission mode as a labelled pill under the message box (300 px side bar, bundled host):
// there as soon as the agent is ready (before any prompt, so a chat can start in Plan), its menu
// in words and the UI font, fully inside the view, and Alt+M in the message box cycles
// Ask → Auto-accept edits → Plan. A fresh chat started in Plan refuses the first write.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, openChat, promptBox, settled, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { ui } from "./ui";

describe("Pi chat mode pill: a labelled permission mode under the message box, usable before the first prompt", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(useBundledHost);
  const target = () => path.join(workspaceRoot(), "mode-pill.txt");
  after(async () => {
    fs.rmSync(target(), { force: true });
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
  });

  it("shows the mode in words under the box in a just-started chat, switches it from its menu and with Alt+M, and starts a chat in Plan", async () => {
    const agent = fixture();
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
    // A just-started agent, nothing sent yet.
    await agent.api.supervisor.stop();
    await agent.api.supervisor.ensureStarted();
    await openChat();
    const pill = ".composer-bar #mode-picker";
    await chatText("the pill, labelled, before any prompt", pill, (t) => t.trim() === "Ask", 5_000);
    const pillBox = await ui.webviewLayout(chatView, pill);
    const box = await ui.webviewLayout(chatView, promptBox);
    assert.ok(pillBox.box.top >= box.box.bottom, `the pill is under the message box: ${JSON.stringify(pillBox.box)} vs ${JSON.stringify(box.box)}`);
    await ui.screenshot("chat-mode-pill-300px");

    // Its menu: human names in the UI font, the whole of it inside the view.
    await ui.clickInWebview(chatView, pill);
    const menu = await chatText("the mode menu", '.picker[data-picker="mode-picker"]', (t) => t.includes("Full auto"));
    for (const label of ["Ask", "Auto-accept edits", "Plan", "Full auto"]) assert.ok(menu.includes(label), `${label} in ${menu}`);
    assert.doesNotMatch(menu, /pi\.permissions|confirmTools/, "no setting id in the menu");
    const list = await ui.webviewLayout(chatView, '.picker[data-picker="mode-picker"]');
    assert.ok(list.box.top >= 0 && list.box.bottom <= list.viewport.height && list.box.left >= 0 && list.box.right <= list.viewport.width, `the menu inside the view: ${JSON.stringify(list)}`);
    const description = await ui.webviewLayout(chatView, '.picker[data-picker="mode-picker"] .picker-description', ["font-family"]);
    const body = await ui.webviewLayout(chatView, "body", ["font-family"]);
    assert.equal(description.styles["font-family"], body.styles["font-family"], "the menu's words in the UI font");
    await ui.screenshot("chat-mode-menu-300px");
    await ui.clickInWebview(chatView, '.picker-option[data-value="acceptEdits"]');
    await eventually("the agent in Auto-accept edits", async () => ((await agent.state()).permissionMode === "acceptEdits") || undefined);
    await chatText("the pill says so", pill, (t) => t.trim() === "Auto-edits");

    // Alt+M in the message box: the next mode.
    await ui.clickInWebview(chatView, promptBox);
    await ui.pressKey("Alt+M");
    await eventually("the agent in Plan", async () => ((await agent.state()).permissionMode === "plan") || undefined);
    await chatText("the pill says Plan", pill, (t) => t.trim() === "Plan");
    await ui.pressKey("Alt+M");
    await eventually("the agent back in Ask", async () => ((await agent.state()).permissionMode === "ask") || undefined);
    await ui.pressKey("Alt+M");
    await ui.pressKey("Alt+M");
    await eventually("the agent in Plan again", async () => ((await agent.state()).permissionMode === "plan") || undefined);
    assert.equal(await ui.webviewProperties(chatView, "vscode-textarea#prompt", ["value"]).then((v) => v.value), "", "the key typed nothing");

    // The first prompt of this agent runs in Plan: the write is refused.
    fs.rmSync(target(), { force: true });
    const count = agent.llm.requests.length;
    agent.llm.enqueue({ toolCalls: [{ name: "write", arguments: { path: "mode-pill.txt", content: "should not be written\n" } }] }, { text: "I will plan first." });
    await ui.typeInWebview(chatView, promptBox, "Write mode-pill.txt");
    await ui.pressKey("Enter");
    await agent.llm.waitForRequests(count + 2);
    await settled(agent);
    assert.equal(fs.existsSync(target()), false, "plan mode refused the write");
  });
});

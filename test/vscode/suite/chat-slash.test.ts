// Built-in slash commands in a fresh bundled chat (300 px side bar): "/" lists new, resume, fork,
// rewind, compact, model, thinking, mode and export beside the agent's own, and each does its job
// for this chat's session without anything reaching the model.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, clearPrompt, promptBox, settled, typePrompt, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { ui } from "./ui";

describe("Pi chat slash commands: the chat's own commands beside the agent's", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(useBundledHost);
  after(async () => vscode.commands.executeCommand("pi.setPermissionMode", "ask"));

  it("lists the built-in commands on /, and each works without a request to the model", async () => {
    const agent = fixture();
    await vscode.commands.executeCommand("pi.newSession");
    await ui.typeInWebview(chatView, promptBox, "/");
    const list = await chatText("the completion list", "#completions", (t) => t.includes("/new"));
    for (const name of ["new", "resume", "fork", "rewind", "compact", "model", "thinking", "mode", "export"]) assert.match(list, new RegExp(`/${name}\\b`), `/${name} in ${list}`);
    await ui.screenshot("chat-slash-300px");
    await clearPrompt();
    const requests = agent.llm.requests.length;

    // /compact with nothing to compact yet: one calm line, not two errors that say it twice.
    await typePrompt("/compact");
    const calm = await chatText("the compaction's answer", ".item-banner", (t) => /nothing to compact/i.test(t));
    assert.doesNotMatch(calm, /Compaction failed: Compaction failed/, calm);
    const shown = String((await ui.webviewProperties(chatView, "#transcript", ["innerHTML"])).innerHTML);
    assert.doesNotMatch(shown, /data-tone="error"|item-error/, "no error in the chat");

    // /mode plan, /mode ask: straight to the agent's state; /mode alone opens the menu.
    await typePrompt("/mode plan");
    await eventually("plan mode", async () => ((await agent.state()).permissionMode === "plan") || undefined);
    await typePrompt("/mode ask");
    await eventually("ask mode", async () => ((await agent.state()).permissionMode === "ask") || undefined);
    await typePrompt("/mode");
    await chatText("the mode menu", '.picker[data-picker="mode-picker"]', (t) => t.includes("Full auto"));
    await ui.pressKey("Escape");

    // A foreign word in a built-in's answer is shown as text.
    await typePrompt('/mode <img src=x onerror="document.title=1">');
    await chatText("the notice", "#transcript", (t) => t.includes('No permission mode is called "<img src=x'));
    const html = String((await ui.webviewProperties(chatView, "#transcript", ["innerHTML"])).innerHTML);
    assert.doesNotMatch(html, /<img/i, "no element made from the argument");

    // /model alone opens the model picker; /model mock-b switches.
    await typePrompt("/model");
    await chatText("the model picker", '.picker[data-picker="model-picker"]', (t) => t.includes("mock-b"));
    await ui.pressKey("Escape");
    await typePrompt("/model mock-b");
    await eventually("the model switched", async () => ((await agent.state()).model?.id === "mock-b") || undefined);
    await chatText("the header says so", "#model-picker", (t) => t.includes("mock-b"));
    await typePrompt("/model mock-a");
    await eventually("the model back", async () => ((await agent.state()).model?.id === "mock-a") || undefined);
    await typePrompt("/thinking");
    await chatText("the thinking picker", '.picker[data-picker="thinking-picker"]', (t) => t.includes("high"));
    await ui.pressKey("Escape");
    assert.equal(agent.llm.requests.length, requests, "nothing went to the model");

    // /compact after an exchange: the compaction shows in the chat.
    agent.llm.enqueue({ text: "A reply to compact." });
    await typePrompt("Say something");
    await agent.llm.waitForRequests(requests + 1);
    await settled(agent);
    agent.llm.enqueue({ text: "The summary of it all." });
    await typePrompt("/compact keep the greeting");
    const summary = await agent.llm.waitForRequests(requests + 2);
    assert.match(JSON.stringify(summary.at(-1)?.body.messages), /keep the greeting/, "the instructions reach the summary");
    await chatText("the compaction in the chat", "#transcript", (t) => /compact/i.test(t));

    // /export (now that there is something to export) writes the session's HTML and says where.
    await typePrompt("/export");
    await ui.waitForSelector('.notification-toast:has-text("exported the session to")');
    const exported = /exported the session to (\S+\.html)/.exec(await ui.text('.notification-toast:has-text("exported the session to")'))?.[1];
    assert.ok(exported && fs.existsSync(exported), `the export exists: ${exported}`);

    // /new: a new session; /resume offers the saved ones.
    const before = (await agent.state()).sessionFile;
    await typePrompt("/new");
    await eventually("a new session", async () => ((await agent.state()).sessionFile !== before) || undefined);
    await typePrompt("/resume");
    await eventually("the sessions to resume", async () => (await ui.quickPickItems()).some((l) => l.startsWith("Say something")) || undefined);
    await ui.pressKey("Escape");
    // An unknown word is still a prompt for the agent: "/nonsense" goes to the model as typed.
    agent.llm.enqueue({ text: "ok" });
    const count = agent.llm.requests.length;
    await typePrompt("/nonsense here");
    await agent.llm.waitForRequests(count + 1);
    await settled(agent);
  });
});

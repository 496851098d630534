// One chat surface at the default side-bar width (~300 px): opening the Plan, Changes or
// Sessions view as a user does (Focus on … View) leaves the chat its room (header, transcript
// and message box stay visible); the plan and the changed files are folded inside the chat.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { chatText, chatView, settled, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { ui } from "./ui";

const numbers = (props: Record<string, unknown>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Number(v)]));

/** The chat's page height, its transcript's and where its message box ends (px in the chat's frame). */
async function chatRoom(): Promise<{ page: number; width: number; transcript: number; headerTop: number; promptBottom: number }> {
  const page = numbers(await ui.webviewProperties(chatView, "html", ["clientHeight", "clientWidth"]));
  const transcript = numbers(await ui.webviewProperties(chatView, "#transcript", ["clientHeight"]));
  const header = numbers(await ui.webviewProperties(chatView, ".chat-header", ["offsetTop"]));
  const composer = numbers(await ui.webviewProperties(chatView, ".composer-wrap", ["offsetTop", "offsetHeight"]));
  return { page: page.clientHeight!, width: page.clientWidth!, transcript: transcript.clientHeight!, headerTop: header.offsetTop!, promptBottom: composer.offsetTop! + composer.offsetHeight! };
}

describe("Pi chat surface: the chat keeps its room when the Plan, Changes or Sessions view opens", function () {
  this.timeout(120_000);
  const target = () => path.join(workspaceRoot(), "chat-surface.txt");
  before(async () => {
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global);
  });
  const fixture = useChatSuiteWith(useBundledHost);
  after(async () => {
    fs.rmSync(target(), { force: true });
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global);
  });

  it("keeps header, transcript and message box visible with each view open; the plan and changes fold inside the chat", async () => {
    const agent = fixture();
    fs.rmSync(target(), { force: true });
    agent.llm.enqueue(
      { toolCalls: [{ name: "todo", arguments: { phases: [{ name: "Work", tasks: [{ content: "Write the file", status: "in_progress" }, { content: "Check it", status: "pending" }] }] } }] },
      { toolCalls: [{ name: "write", arguments: { path: "chat-surface.txt", content: "made by the agent\n" } }] },
      { text: "Done." },
    );
    const count = agent.llm.requests.length;
    agent.api.sessions.focusPrimary();
    await vscode.commands.executeCommand("pi.sendPrompt", "Plan and write the file");
    await agent.llm.waitForRequests(count + 3);
    await settled(agent);
    await chatText("the plan inside the chat", "#plan", (t) => t.includes("Write the file"));
    // Earlier suites may have left changes of their own waiting: at least this one.
    await chatText("the changed files inside the chat", "#changes", (t) => /\d+ files? changed/.test(t));
    const alone = await chatRoom();
    await ui.screenshot("chat-surface-300px");
    for (const [view, title] of [["pi.plan", "Plan"], ["pi.changes", "Changes"], ["pi.sessions", "Sessions"]] as const) {
      await vscode.commands.executeCommand(`${view}.focus`);
      await ui.waitForSelector(`.pane-header h3.title:text-is("${title}")`);
      await vscode.commands.executeCommand("pi.focusChat");
      const room = await chatRoom();
      await ui.screenshot(`chat-surface-with-${view.slice(3)}`);
      const said = `${view} open: ${JSON.stringify(room)} (alone ${JSON.stringify(alone)})`;
      assert.ok(room.width >= 250 && room.width <= 420, `a side bar about 300 px wide: ${said}`);
      assert.ok(room.page >= 600, `the chat keeps most of the side bar's height (900 px window): ${said}`);
      assert.ok(room.transcript >= 300, `the transcript keeps at least 300 px: ${said}`);
      assert.ok(room.headerTop >= 0 && room.promptBottom <= room.page, `header and message box inside the chat: ${said}`);
      assert.ok(room.page >= alone.page - 40, `the chat does not shrink: ${said}`);
    }
  });
});

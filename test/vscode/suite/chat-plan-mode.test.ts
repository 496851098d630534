// Plan mode as the chat shows it (300 px side bar, bundled host): the writes it refuses are
// "not run: plan mode" (muted, not a red failure), the todo tool's card says "Plan: 3 tasks"
// (not its JSON), and the note of the mode change has a human title (not "permission_mode").
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, typePrompt, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { ui } from "./ui";

describe("Pi chat in plan mode: refusals are not failures, the plan has a readable title", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(useBundledHost);
  const target = () => path.join(workspaceRoot(), "plan-mode-card.txt");
  after(async () => {
    fs.rmSync(target(), { force: true });
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
  });

  it("shows a refused write as not run, the todo card as 'Plan: 3 tasks', the mode change under a human title", async () => {
    const agent = fixture();
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
    await vscode.commands.executeCommand("pi.setPermissionMode", "plan");
    await eventually("plan mode", async () => ((await agent.state()).permissionMode === "plan") || undefined);
    const count = agent.llm.requests.length;
    agent.llm.enqueue(
      {
        toolCalls: [
          { name: "todo", arguments: { phases: [{ name: "Greeting", tasks: [{ content: "Read greet.ts", status: "completed" }, { content: "Change it", status: "pending" }, { content: "Test it", status: "pending" }] }] } },
          { name: "write", arguments: { path: "plan-mode-card.txt", content: "not in plan mode\n" } },
        ],
      },
      { text: "Here is the plan." },
    );
    await typePrompt("Plan, then write plan-mode-card.txt");
    await agent.llm.waitForRequests(count + 2);
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "Here is the plan.");
    await settled(agent);
    assert.equal(fs.existsSync(target()), false, "plan mode refused the write");

    // The refused write: not run, muted, no red failure, no "write failed" block.
    const write = ".item-tool[data-tool='write']";
    const status = await chatText("the write's state", `${write} .tool-summary-state`, (t) => /not run: plan mode/i.test(t));
    assert.match(status, /not run: plan mode/i);
    const card = await ui.webviewText(chatView, write);
    assert.doesNotMatch(card, /write failed/i, card);
    assert.equal(await ui.webviewText(chatView, `${write}[data-status='error']`).then(() => true, () => false), false, "not shown as an error");
    await chatText("its status says why", `${write} .tool-status[aria-label='not run: plan mode']`);

    // The todo card: a readable title.
    assert.equal(await chatText("the todo card's title", ".item-tool[data-tool='todo'] .tool-summary"), "Plan: 3 tasks (1 done)");

    // The mode change's note: a human title.
    const titles = await ui.webviewText(chatView, "#transcript");
    assert.doesNotMatch(titles, /permission_mode/, "no raw custom type as a title");
    assert.match(await chatText("the mode note", ".item-notice:has-text('plan mode') .item-label"), /^Mode changed$/);
    await ui.screenshot("chat-plan-mode-300px");
  });
});

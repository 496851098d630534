// The plan's place in the chat under stress (#32), at the narrowest side bar the chat is made for
// (250 px): a plan of 40 tasks, one named like markup and one a 200-character word, the decision
// under it, and a reply whose table holds a long URL. Everything stays inside the view sideways,
// the folded plan one line, the unfolded one within its part of the view, the markup as text.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, fitsSideways, numbers, settled, typePrompt, useSideBarWidth, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { ui } from "./ui";

const markup = `<img src=x onerror="document.body.dataset.pwned='1'">`;
const longWord = "x".repeat(200);
const url = `https://example.com/${"segment/".repeat(20)}end`;

describe("Pi chat's plan at 250 px with a long plan, markup in a task and a wide table", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(useBundledHost);
  const sideBarWidth = useSideBarWidth(250);
  after(async () => {
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
  });

  it("keeps the plan's line, its decision and the table inside the view, the tasks as text", async () => {
    const agent = fixture();
    await sideBarWidth.narrow();
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
    await vscode.commands.executeCommand("pi.setPermissionMode", "plan");
    await eventually("plan mode", async () => ((await agent.state()).permissionMode === "plan") || undefined);

    const tasks = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ content: `Task ${from + i}`, status: from + i < 5 ? "completed" : from + i === 5 ? "in_progress" : "pending" }));
    const phases = [
      { name: markup, tasks: [...tasks(1, 12), { content: markup, status: "pending" }] },
      { name: "Long", tasks: [{ content: longWord, status: "pending" }, ...tasks(13, 13)] },
      { name: "Last", tasks: tasks(26, 13) },
    ];
    const count = agent.llm.requests.length;
    agent.llm.enqueue({ toolCalls: [{ name: "todo", arguments: { phases } }] }, { text: `| Source | Note |\n|---|---|\n| ${url} | read it first |\n` });
    await typePrompt("Plan it all");
    await agent.llm.waitForRequests(count + 2);
    await settled(agent);
    await chatText("the plan's line", "#plan summary", (t) => /4 of 40 done/.test(t));
    await chatText("the decision", "#plan [data-action='plan-approve']");
    await ui.screenshot("chat-plan-250px");

    const view = (await ui.webviewLayout(chatView, "body")).viewport;
    const summary = (await ui.webviewLayout(chatView, "#plan summary")).box;
    assert.ok(summary.height <= 26, `the plan's line is one line: ${summary.height} px`);
    for (const selector of ["#plan summary", "#plan [data-action='plan-approve']", "#plan [data-action='plan-keep']"]) {
      const { box } = await ui.webviewLayout(chatView, selector);
      assert.ok(box.left >= 0 && box.right <= view.width + 0.5, `${selector} inside the view: ${JSON.stringify(box)} in ${view.width}`);
    }
    // The URL's table: inside the view (it may break the URL after a "/", or scroll itself sideways).
    const table = (await ui.webviewLayout(chatView, "#transcript .item-assistant:last-child .markdown table")).box;
    assert.ok(table.right <= view.width + 0.5, `the table inside the view: ${JSON.stringify(table)} in ${view.width}`);
    await fitsSideways("folded");

    // Unfolded: 40 tasks within its part of the view, the long word wrapped inside it, the markup as text.
    await ui.clickInWebview(chatView, "#plan summary");
    await chatText("the tasks", "#plan", (t) => t.includes("Task 38"));
    const plan = await ui.webviewLayout(chatView, "#plan");
    assert.ok(plan.box.height <= 0.45 * plan.viewport.height, `unfolded within its part: ${plan.box.height} of ${plan.viewport.height} px`);
    await fitsSideways("unfolded");
    const list = numbers(await ui.webviewProperties(chatView, "#plan .plan-list", ["scrollWidth", "clientWidth"]));
    assert.ok(list.scrollWidth! <= list.clientWidth! + 1, `nothing in the plan cut at the right (a phase named with one long word): ${list.scrollWidth} in ${list.clientWidth}`);
    const html = String((await ui.webviewProperties(chatView, "#plan", ["innerHTML"])).innerHTML);
    assert.ok(!/<img/i.test(html) && html.includes("&lt;img src=x"), "the task named like markup shows as text");
    const body = String((await ui.webviewProperties(chatView, "body", ["outerHTML"])).outerHTML);
    assert.ok(!body.includes("data-pwned"), "nothing ran");
    await ui.screenshot("chat-plan-250px-unfolded");
    await ui.clickInWebview(chatView, "#plan summary");
  });
});

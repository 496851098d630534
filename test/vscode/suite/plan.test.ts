// The plan (seed 001's todos) in the Plan view (hidden until asked for: the chat holds the plan,
// #32): the bundled agent's todo tool fills it live with progress; the user marks a task done (the
// ✓ on its row) and adds one (the view's input box); both reach the agent (get_state) and the
// model's next request. The same plan shows above the chat's message box, folded to one line,
// where a task can be marked done too once unfolded.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { useHostSuite } from "./host-fixture";
import { ui } from "./ui";

// The view's own pane: its title is exactly "Plan" (the chat's title may hold a prompt with the word).
const pane = '.pane:has(.pane-header h3.title:text-is("Plan"))';
const row = (text: string) => `${pane} .monaco-list-row:has-text(${JSON.stringify(text)})`;

describe("plan: the agent's todo list in the Plan view, edited by the user", function () {
  this.timeout(90_000);
  const suiteHost = useHostSuite();

  it("shows the plan as the agent writes it, and the user's edits reach the agent and the model", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.focusChat"); // the side bar's session is the one commands act on
    host.llm.enqueue(
      {
        toolCalls: [{
          name: "todo",
          arguments: { phases: [{ name: "Refactor greet", tasks: [
            { content: "Read src/greet.ts", status: "completed" },
            { content: "Change the greeting", status: "in_progress" },
            { content: "Run the tests", status: "pending" },
          ] }] },
        }],
      },
      { text: "Planned." },
    );
    await host.prompt("Plan the refactoring.", "Planned.");
    // The view is hidden until asked for: the chat's plan, unfolded, opens it for editing.
    await eventually("the plan's line in the chat", async () => (await ui.webviewText("Chat", "#plan summary").catch(() => "")).includes("1 of 3 done") || undefined);
    await ui.clickInWebview("Chat", "#plan summary");
    await ui.clickInWebview("Chat", "#plan [data-action='plan-edit']");
    await ui.waitForSelector(row("Change the greeting"));
    await ui.clickInWebview("Chat", "#plan summary"); // folded again
    assert.match(await ui.text(`${pane} .pane-header`), /1\/3 done/);
    assert.match(await ui.text(row("Refactor greet")), /1\/3/);
    await ui.screenshot("plan-view");

    // The row's ✓ marks it done; the agent's list changes. A click can land on a row drawn anew
    // between the hover and the click (the action shows on hover only) and do nothing: then the
    // task is still pending, and only then is it clicked again (a second click that counted would undo it).
    const runTestsStatus = async () => ((await host.state()).todoPhases as { tasks: { content: string; status: string }[] }[] | undefined)?.[0]?.tasks.find((t) => t.content === "Run the tests")?.status;
    for (let attempt = 0; (await runTestsStatus()) !== "completed"; attempt++) {
      assert.ok(attempt < 3, "the ✓ marked the task done within three clicks");
      await ui.hover(row("Run the tests"));
      await ui.click(`${row("Run the tests")} .action-label[aria-label^="Mark Task Done"]`).catch(() => undefined);
      await eventually("the agent to have the task done", async () => ((await runTestsStatus()) === "completed" ? true : undefined), 5_000).catch(() => undefined);
    }
    await eventually("the view to count it", async () => /2\/3 done/.test(await ui.text(`${pane} .pane-header`)) || undefined);

    // Add Task from the view: an input box the user types into.
    void vscode.commands.executeCommand("pi.plan.addTask");
    await ui.inputBoxType("Update the changelog");
    await ui.waitForSelector(row("Update the changelog"));
    await eventually("the view to count the new task", async () => /2\/4 done/.test(await ui.text(`${pane} .pane-header`)) || undefined);

    // The same plan above the chat's message box, live and folded to a line: 2 of 4 done; unfolded,
    // every task, and a task marked done there reaches the agent.
    await vscode.commands.executeCommand("pi.focusChat");
    await eventually("the plan in the chat", async () => (await ui.webviewText("Chat", "#plan summary").catch(() => "")).includes("2 of 4 done") || undefined);
    assert.equal((await ui.webviewProperties("Chat", "#plan details", ["open"])).open, false, "folded to its line");
    await ui.clickInWebview("Chat", "#plan summary");
    const chatPlan = await ui.webviewText("Chat", "#plan");
    for (const task of ["Read src/greet.ts", "Change the greeting", "Run the tests", "Update the changelog"]) assert.ok(chatPlan.includes(task), `${task} in ${chatPlan}`);
    await ui.screenshot("plan-in-chat");
    await ui.clickInWebview("Chat", '#plan .plan-task:has-text("Change the greeting") .plan-toggle');
    await eventually("the agent to have the chat's edit", async () => {
      const phases = (await host.state()).todoPhases as { tasks: { content: string; status: string }[] }[] | undefined;
      return phases?.[0]?.tasks.find((t) => t.content === "Change the greeting")?.status === "completed" || undefined;
    });
    await eventually("the chat and the view to count it", async () => ((await ui.webviewText("Chat", "#plan summary")).includes("3 of 4 done") && /3\/4 done/.test(await ui.text(`${pane} .pane-header`))) || undefined);
    // Unfolded by the user, it stayed open across the update; a click folds it to its line again.
    assert.equal((await ui.webviewProperties("Chat", "#plan details", ["open"])).open, true, "open across the update");
    await ui.clickInWebview("Chat", "#plan summary");
    assert.equal((await ui.webviewProperties("Chat", "#plan details", ["open"])).open, false);

    // The model hears of the user's edits before its next call, the latest plan last.
    await host.prompt("Go on.");
    const messages = host.llm.requests.at(-1)!.body.messages;
    const told = messages.filter((m) => JSON.stringify(m).includes("The user changed the plan"));
    assert.equal(told.length, 3, "one note per edit");
    assert.match(JSON.stringify(told.at(-1)), /\[x\] Run the tests/);
    assert.match(JSON.stringify(told.at(-1)), /\[x\] Change the greeting/);
    assert.match(JSON.stringify(told.at(-1)), /\[ \] Update the changelog/);
    assert.match(JSON.stringify(messages.at(-1)), /Go on\./);
  });
});

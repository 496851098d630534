// Plan mode as the chat shows it (300 px side bar, bundled host): the writes it refuses are
// "not run: plan mode" (muted, not a red failure), the todo tool's card says "Plan: 3 tasks"
// (not its JSON), and the note of the mode change has a human title (not "permission_mode").
// The plan lives in the chat (#32): Approve plan and Keep planning right under it, the plan and
// the changes folded to a line each so the transcript keeps its room, tables that never split a word.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { printFigures } from "./figures";
import { chatText, chatView, numbers, promptBox, settled, shiftTabTo, typePrompt, useChatSuiteWith } from "./chat-support";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { ui } from "./ui";

const approve = "#plan [data-action='plan-approve']";
const keep = "#plan [data-action='plan-keep']";
const todo = { name: "todo", arguments: { phases: [
  { name: "Validation", tasks: [{ content: "Read src/util.ts", status: "completed" }, { content: "Reject lines with a missing price or quantity in parseLine", status: "completed" }, { content: "Add tests for malformed lines", status: "in_progress" }] },
  { name: "Docs", tasks: [{ content: "Document the line format", status: "pending" }, { content: "Note it in the changelog", status: "pending" }] },
] } };

/** The plan's part of the chat holds the decision (Approve plan, Keep planning). */
const offersDecision = async () => String((await ui.webviewProperties(chatView, "#plan", ["textContent"])).textContent).includes("Approve plan");

/** The user asks for a change in plan mode, the agent answers: the decision is offered again. */
async function revise(agent: Pick<HostFixture, "api" | "llm">, prompt: string, reply: string): Promise<void> {
  const count = agent.llm.requests.length;
  agent.llm.enqueue({ text: reply });
  await typePrompt(prompt);
  await agent.llm.waitForRequests(count + 1);
  await settled(agent);
  await chatText("Approve plan offered again", approve);
}

async function toPlanMode(agent: { state(): Promise<{ permissionMode?: string }> }): Promise<void> {
  await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
  await vscode.commands.executeCommand("pi.setPermissionMode", "plan");
  await eventually("plan mode", async () => ((await agent.state()).permissionMode === "plan") || undefined);
}

describe("Pi chat in plan mode: refusals are not failures, the plan in the chat with its decision", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(useBundledHost);
  const target = () => path.join(workspaceRoot(), "plan-mode-card.txt");
  const written = ["plan-fold-a.txt", "plan-fold-b.txt"];
  after(async () => {
    fs.rmSync(target(), { force: true });
    for (const file of written) fs.rmSync(path.join(workspaceRoot(), file), { force: true });
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
  });

  it("shows a refused write as not run, the todo card as 'Plan: 3 tasks', the mode change under a human title", async () => {
    const agent = fixture();
    await toPlanMode(agent);
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

  it("offers Approve plan and Keep planning right under the plan, from the keyboard, doing what the palette does", async () => {
    const agent = fixture();
    await toPlanMode(agent);
    let count = agent.llm.requests.length;
    agent.llm.enqueue({ toolCalls: [todo] }, { text: "Here is the plan. Approve it and I will start." });
    await typePrompt("Plan the validation");
    await agent.llm.waitForRequests(count + 2);
    await settled(agent);

    // Both actions, labelled, right under the plan's line.
    await chatText("Approve plan in the chat", approve, (t) => /Approve plan/.test(t));
    assert.match(await ui.webviewText(chatView, keep), /Keep planning/);
    const [line, approveBox, keepBox] = await Promise.all(["#plan summary", approve, keep].map(async (s) => (await ui.webviewLayout(chatView, s)).box));
    assert.ok(approveBox.top >= line!.bottom - 0.5 && keepBox.top >= line!.bottom - 0.5, `under the plan's line: ${JSON.stringify({ line, approveBox, keepBox })}`);
    await ui.screenshot("chat-plan-approve-300px");

    // From the keyboard: Shift+Tab from the message box reaches Keep planning; Enter there keeps
    // plan mode, asks nothing of the model and gives the message box back for what should change.
    await shiftTabTo("plan-keep");
    await ui.pressKey("Enter");
    await chatText("the message box focused again", `${promptBox}:focus`);
    await eventually("the actions put away", async () => !(await offersDecision()) || undefined);
    assert.equal((await agent.state()).permissionMode, "plan", "still planning");
    assert.equal(agent.llm.requests.length, count + 2, "nothing sent to the model");

    // The agent revises the plan: the actions are back; Approve plan (by keyboard) asks how to work, as the palette does.
    await revise(agent, "Cover empty lines too", "Revised: empty lines too.");
    // The palette's Keep Planning does the same as the chat's button.
    await vscode.commands.executeCommand("pi.keepPlanning");
    await eventually("the actions put away by the palette", async () => !(await offersDecision()) || undefined);
    await chatText("the message box focused by the palette", `${promptBox}:focus`);
    await revise(agent, "And blank lines", "Revised again: blank lines as well.");
    await shiftTabTo("plan-approve");
    count = agent.llm.requests.length;
    agent.llm.enqueue({ text: "Starting." });
    await ui.pressKey("Enter");
    await eventually("the approve picker", async () => (await ui.quickPickItems()).includes("Approve: Auto-accept edits") || undefined);
    await ui.pickQuickPickItem("Approve: Auto-accept edits");
    await agent.llm.waitForRequests(count + 1);
    await settled(agent);
    assert.equal((await agent.state()).permissionMode, "acceptEdits");
    assert.match(JSON.stringify(agent.llm.requests[count]!.body.messages), /The plan is approved\. Go ahead\./);
    await eventually("the actions gone", async () => !(await offersDecision()) || undefined);
  });

  it("offers no decision for a plan the run did not finish: after Abort, after a failed request; a finished answer brings it back", async () => {
    const agent = fixture();
    await toPlanMode(agent);
    // The agent writes part of a plan, then its next request hangs: the user presses Abort.
    let count = agent.llm.requests.length;
    agent.llm.enqueue({ toolCalls: [todo] }, { kind: "hang" });
    await typePrompt("Plan the validation, slowly");
    await agent.llm.waitForRequests(count + 2);
    await chatText("the partial plan in the chat", "#plan summary", (t) => /Plan · 2 of 5 done/.test(t));
    await ui.clickInWebview(chatView, "vscode-button#abort");
    await settled(agent);
    // The decision would come with the idle status (and the state read after it): give it the time.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await ui.screenshot("chat-plan-aborted-300px");
    assert.equal(await offersDecision(), false, `no Approve plan for an aborted plan: ${await ui.webviewText(chatView, "#plan")}`);

    // A request that fails (the provider refuses it) is no answer either.
    count = agent.llm.requests.length;
    agent.llm.enqueue({ kind: "error", status: 400, message: "bad request" });
    await typePrompt("Go on planning");
    await agent.llm.waitForRequests(count + 1);
    await settled(agent);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await offersDecision(), false, "no Approve plan after a failed request");

    // The agent finishes its plan: the decision is offered.
    await revise(agent, "Finish the plan", "Here is the whole plan.");
  });

  it("wraps the plan's table at word boundaries at 300 px and scrolls it sideways rather than splitting a word", async () => {
    const agent = fixture();
    const count = agent.llm.requests.length;
    agent.llm.enqueue({
      text: [
        // Words without spaces or punctuation (a path may break after "/"), in the body's font.
        "| Step | Module | Risk |\n|---|---|---|\n| Validate | parseLineStrictValidator | low |\n| Tests | parseLineStrictValidatorTests | none |\n| Docs | README | none |\n| 1 | 2 | 3 |\n\n",
        "| Task | Why |\n|---|---|\n| Reject lines with a missing price or quantity | Malformed input crashed the total |\n",
      ].join(""),
    });
    await typePrompt("Show the plan as a table");
    await agent.llm.waitForRequests(count + 1);
    await settled(agent);
    const wide = "#transcript .item-assistant:last-child .markdown table:has-text('parseLineStrictValidator')";
    const prose = "#transcript .item-assistant:last-child .markdown table:has-text('Malformed')";
    await chatText("the tables", prose, (t) => t.includes("Malformed"));
    await ui.screenshot("chat-plan-table-300px");
    const height = async (selector: string) => Number((await ui.webviewProperties(chatView, selector, ["offsetHeight"])).offsetHeight);
    // One word per cell: every row one line high, as high as the last row's single digits.
    const line = await height(`${wide} tbody tr:nth-child(4)`);
    for (const row of [`${wide} thead tr`, ...[1, 2, 3].map((n) => `${wide} tbody tr:nth-child(${n})`)]) {
      const h = await height(row);
      assert.ok(Math.abs(h - line) <= 1, `${row.slice(row.lastIndexOf(")") + 2)}: single words on one line: ${h} px, a line ${line} px (a word split across lines makes it taller)`);
    }
    const scroll = numbers(await ui.webviewProperties(chatView, wide, ["scrollWidth", "clientWidth"]));
    assert.ok(scroll.scrollWidth! > scroll.clientWidth!, `too wide for 300 px: the table scrolls sideways (${scroll.scrollWidth} in ${scroll.clientWidth})`);
    const root = numbers(await ui.webviewProperties(chatView, "html", ["scrollWidth", "clientWidth"]));
    assert.ok(root.scrollWidth! <= root.clientWidth! + 1, `the chat itself does not: ${root.scrollWidth} in ${root.clientWidth}`);
    // Sentences wrap at their spaces inside the view: the table fits, its row is several lines high.
    const fits = numbers(await ui.webviewProperties(chatView, prose, ["scrollWidth", "clientWidth"]));
    assert.ok(fits.scrollWidth! <= fits.clientWidth! + 1, `the sentences' table fits: ${fits.scrollWidth} in ${fits.clientWidth}`);
    assert.ok((await height(`${prose} tbody tr:nth-child(1)`)) >= 1.8 * (await height(`${prose} tr:nth-child(1)`)), "the sentences wrap");
  });

  it("folds the plan and the changes to a line each above the box at 300 px: the transcript keeps its room", async () => {
    const agent = fixture();
    await vscode.commands.executeCommand("pi.setPermissionMode", "acceptEdits");
    await eventually("auto-accept edits", async () => ((await agent.state()).permissionMode === "acceptEdits") || undefined);
    await vscode.commands.executeCommand("pi.review.keepAll"); // earlier suites' changes: none waiting
    await eventually("no changes line", async () => (await ui.webviewProperties(chatView, "#changes", ["hidden"])).hidden === true || undefined);
    const count = agent.llm.requests.length;
    agent.llm.enqueue(
      { toolCalls: [todo] },
      { toolCalls: written.map((file) => ({ name: "write", arguments: { path: file, content: `${file}\n` } })) },
      { text: "Two files written; the tests are next." },
    );
    await typePrompt("Plan, then write the two files");
    await agent.llm.waitForRequests(count + 3);
    await settled(agent);
    await chatText("the plan in the chat", "#plan", (t) => t.includes("Add tests for malformed lines"));
    await chatText("the changes line", "#changes", (t) => /2 files changed/.test(t));
    // What the two take from the transcript: its room with them, and without them (their heights added back).
    const transcript = numbers(await ui.webviewProperties(chatView, "#transcript", ["clientHeight"])).clientHeight!;
    const [plan, changes] = await Promise.all(["#plan", "#changes"].map(async (s) => (await ui.webviewLayout(chatView, s)).box));
    await ui.screenshot("chat-plan-folded-300px");
    const above = plan!.height + changes!.height;
    const said = `transcript ${transcript} px with the plan (${plan!.height} px) and the changes (${changes!.height} px) above the box, ${transcript + above} px without them`;
    printFigures(`room at 300 px: ${said}`);
    assert.ok(plan!.height <= 32 && changes!.height <= 32, `a line each: ${said}`);
    assert.ok(above <= 64 && transcript >= 0.88 * (transcript + above), `the transcript keeps its room: ${said}`);
    const summary = await chatText("the plan's line", "#plan summary", (t) => /Plan · 2 of 5 done/.test(t));
    assert.match(summary, /Add tests for malformed lines/, "what is under way, on the same line");

    // The line unfolds (Enter on it) to every task, within a part of the view, and folds again.
    await shiftTabTo("plan-fold");
    await ui.pressKey("Enter");
    await chatText("the tasks", "#plan", (t) => t.includes("Note it in the changelog") && t.includes("Docs"));
    const open = await ui.webviewLayout(chatView, "#plan");
    assert.ok(open.box.height <= 0.45 * open.viewport.height, `unfolded, the plan keeps under half the view: ${open.box.height} of ${open.viewport.height} px`);
    await ui.screenshot("chat-plan-unfolded-300px");
    await ui.pressKey("Enter");
    await eventually("folded again", async () => (await ui.webviewProperties(chatView, "#plan details", ["open"])).open === false || undefined);

    // One plan surface: the Pi Session panel (opened for its Sessions) shows no second copy of it.
    await vscode.commands.executeCommand("pi.sessions.focus");
    await ui.waitForSelector(".part.panel .monaco-list-row");
    await ui.waitForSelector('.part.panel .pane-header h3.title:text-is("Plan")', "detached", 3_000);
    await vscode.commands.executeCommand("pi.review.keepAll");
  });
});

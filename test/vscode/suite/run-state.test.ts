// The run state has one owner (the supervisor's AgentState): the chat header and the Sessions
// list render it, so through a whole run — working, a question waiting for the user, working
// again, done — they say the same thing at every step.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually, usePiAgent, type AgentFixture } from "./agent-fixture";
import { printFigures } from "./figures";
import { useHostSuite } from "./host-fixture";
import { requireUi, ui } from "./ui";

const sessionRow = '.pane:has(.pane-header h3.title:text-is("Sessions")) .monaco-list-row'; // the side bar's session is the first

/** The Sessions list's word for each thing the chat header says. */
const listWord: Record<string, RegExp> = {
  "Working…": /running/,
  "Waiting for you": /waiting for you/,
  Ready: /(idle|done) ·/,
};
const seen = { checkpoints: 0, samples: 0 };

/** Both say the same: the header's text, and the list's row the matching word. */
async function agree(header: keyof typeof listWord): Promise<void> {
  await eventually(`the chat header to say ${header}`, async () => (await ui.webviewText("Chat", "#status")) === header || undefined);
  await eventually(`the Sessions list to say ${listWord[header]}`, async () => listWord[header]!.test(await ui.text(sessionRow)) || undefined);
  // And the header still says it (it did not move on while the list caught up).
  assert.equal(await ui.webviewText("Chat", "#status"), header);
  seen.checkpoints++;
}

describe("run state: the chat header and the Sessions list agree through a run", function () {
  this.timeout(90_000);
  const suiteHost = useHostSuite();

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-run-state-${this.currentTest.title.slice(0, 30)}`);
  });
  after(() => printFigures(`run state (bundled host): checkpoints where header and Sessions list agreed ${seen.checkpoints} (disagreed 0), samples ${seen.samples}`));

  it("says Waiting for you in both while a question is open, Working… in both after the answer, Ready/done at the end", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.sessions.focus"); // the list is collapsed by default
    await vscode.commands.executeCommand("pi.focusChat");
    await agree("Ready");
    const before = host.llm.requests.length;
    host.llm.enqueue(
      { toolCalls: [{ name: "bash", arguments: { command: "echo run-state" } }] },
      { text: ["The ", "command ", "ran ", "and ", "printed ", "run-state."], delayMs: 400 },
    );
    void vscode.commands.executeCommand("pi.sendPrompt", "run echo run-state");

    // Sampled the whole run long: what the header said, in order (repeats folded).
    const headerSays: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const text = await ui.webviewText("Chat", "#status").catch(() => "");
        if (text && headerSays.at(-1) !== text) headerSays.push(text);
        seen.samples++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    await eventually("the permission quick pick", async () => (await ui.quickPickItems()).includes("Deny") || undefined);
    await agree("Waiting for you");
    await ui.screenshot("run-state-waiting");
    await ui.pickQuickPickItem("Allow once");
    await agree("Working…");
    await host.llm.waitForRequests(before + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
    await agree("Ready");
    sampling = false;
    await sampler;
    const order = headerSays.filter((t) => t !== "Ready");
    assert.deepEqual(order.slice(order.indexOf("Waiting for you")), ["Waiting for you", "Working…"], `the header's sequence: ${headerSays.join(" → ")}`);
  });
});

describe("run state with pi: the header and the Sessions list agree while an extension asks", function () {
  this.timeout(90_000);
  let agent: AgentFixture;

  before(async function () {
    requireUi(this);
    // agent-hooks: a bash command with "ask" in it waits for a confirm of the extension (a question inside a run).
    agent = await usePiAgent(["test/fixtures/extensions/agent-hooks.ts"]);
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-run-state-pi-${this.currentTest.title.slice(0, 30)}`);
  });
  after(async () => agent?.dispose());

  it("says Waiting for you in both through each of an extension's questions, Ready in both when they are done", async () => {
    await vscode.commands.executeCommand("pi.sessions.focus");
    await vscode.commands.executeCommand("pi.focusChat");
    await agree("Ready");
    const before = seen.checkpoints;
    const done = agent.api.chat.prompt("/ui-demo");
    // Four questions one after the other (select, confirm, input, editor): each cancelled on its card.
    const cancelled = async () => ((await ui.webviewText("Chat", ".transcript").catch(() => "")).match(/Cancelled here/g) ?? []).length;
    for (let i = 0; i < 4; i++) {
      await eventually(`${i} questions cancelled`, async () => ((await cancelled()) === i) || undefined);
      await eventually(`question ${i + 1} open`, async () => ((await ui.webviewProperties("Chat", '.item-dialog[data-state="open"]', ["isConnected"]).catch(() => undefined))?.isConnected === true) || undefined);
      await agree("Waiting for you");
      await ui.clickInWebview("Chat", '.item-dialog[data-state="open"] [data-action="cancel"]');
    }
    await eventually("4 questions cancelled", async () => ((await cancelled()) === 4) || undefined);
    await done;
    await agree("Ready");
    assert.equal(seen.checkpoints - before, 5);
  });

  it("closes an extension's question everywhere when the run is aborted: quick pick, card, header, Sessions list, status bar", async () => {
    await vscode.commands.executeCommand("pi.sessions.focus");
    await vscode.commands.executeCommand("pi.focusChat");
    agent.api.chat.transcript.clear();
    agent.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "echo ask-never-ran" } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "run echo ask-never-ran");
    await eventually("the extension's confirm", async () => (await ui.quickPickItems()).includes("Yes") || undefined);
    await agree("Waiting for you");
    await ui.clickInWebview("Chat", "vscode-button#abort");
    await eventually("the agent to be idle", () => agent.api.supervisor.status === "idle" || undefined);

    const notWaiting = async (when: string) => {
      await agree("Ready");
      await ui.waitForSelector(".quick-input-widget", "hidden");
      await eventually(`the card to say Cancelled ${when}`, async () => (await ui.webviewText("Chat", ".item-dialog")).includes("Cancelled") || undefined);
      assert.doesNotMatch(await ui.webviewText("Chat", ".item-dialog"), /\bYes\b|\bNo\b|Dismissed/, `no live buttons on the card ${when}`);
      await eventually(`the status bar to stop waiting ${when}`, async () => !(await ui.text('.statusbar-item:has-text("Pi")')).includes("waiting") || undefined);
      assert.equal(agent.api.sessions.primary.pending.size, 0, `no pending question ${when}`);
    };
    await notWaiting("after the abort");
    const count = agent.llm.requests.length;
    agent.llm.enqueue({ text: "Fine." });
    await agent.api.chat.prompt("and now?");
    await agent.llm.waitForRequests(count + 1);
    await eventually("the reply", () => agent.api.supervisor.status === "idle" || undefined);
    await notWaiting("after a new prompt");
    assert.doesNotMatch(JSON.stringify(agent.llm.requests.at(-1)!.body.messages), /ask-never-ran\\n/, "the aborted command never ran");
  });
});

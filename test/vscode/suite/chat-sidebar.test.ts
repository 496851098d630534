// The chat at the default side-bar width: a queued message shows whole lines (not a dozen
// characters beside its buttons), an open question is a two-line mirror of its quick pick and
// folds to one line once answered, a message put back
// into the box is selected (typing replaces it instead of running on after it), and the
// sessions menu does not look like a message's Rewind button.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually, usePiAgent, type AgentFixture } from "./agent-fixture";
import { chatText, chatView, promptBox, promptValue, settled, typePrompt, useChatSuiteWith } from "./chat-support";
import { printFigures } from "./figures";
import { useBundledHost } from "./host-fixture";
import { ui } from "./ui";

/** A prompt and its scripted reply, as typed in the chat. */
async function exchange(agent: Agent, text: string, reply: string): Promise<void> {
  const count = agent.llm.requests.length;
  agent.llm.enqueue({ text: reply });
  await agent.api.chat.prompt(text);
  await agent.llm.waitForRequests(count + 1);
  await settled(agent);
}

const numbers = (props: Record<string, unknown>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Number(v)]));

/** The agents the suite runs with, and how each asks before a bash command (the question the fold test answers). */
type Agent = Pick<AgentFixture, "api" | "llm" | "dispose">;
const agents: { name: string; start: () => Promise<Agent>; command: (c: string) => string; allow: string; longAnswer: string | undefined }[] = [
  { name: "the bundled host", start: useBundledHost, command: (c: string) => c, allow: "Allow once", longAnswer: "Allow this exact command" },
  // agent-hooks: a bash command with "ask" in it waits for the extension's confirm.
  { name: "pi 0.87.1", start: () => usePiAgent(["test/fixtures/extensions/agent-hooks.ts"]), command: (c: string) => `echo ask\n${c}`, allow: "Yes", longAnswer: undefined },
];

for (const variant of agents) describe(`Pi chat in the side bar with ${variant.name}: what fits, what folds`, function () {
  this.timeout(90_000);
  const fixture = useChatSuiteWith(variant.start);

  it("shows a long queued message across the queue's width, on several lines", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: Array.from({ length: 60 }, (_, i) => `word${i} `), delayMs: 100 });
    await typePrompt("Run for a while");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    const long = "Afterwards, please also update the changelog entry for this release and mention the new settings";
    await typePrompt(long, "Alt+Enter");
    await chatText("the follow-up in the queue", "#queue .queue-text", (t) => t === long);
    const queue = numbers(await ui.webviewProperties(chatView, "#queue", ["clientWidth"]));
    const text = numbers(await ui.webviewProperties(chatView, "#queue .queue-text", ["clientWidth", "offsetHeight", "scrollHeight"]));
    const kind = numbers(await ui.webviewProperties(chatView, "#queue .queue-kind", ["offsetHeight"]));
    if (variant.longAnswer) await ui.screenshot("sidebar-queue-long");
    assert.ok(text.clientWidth! >= 0.85 * queue.clientWidth!, `the text takes the queue's width: ${text.clientWidth} of ${queue.clientWidth}`);
    assert.ok(text.offsetHeight! >= 1.8 * kind.offsetHeight!, `the text wraps onto several lines: ${text.offsetHeight}px, a line ${kind.offsetHeight}px`);
    await ui.clickInWebview(chatView, "vscode-button#abort");
    await settled(agent);
  });

  it("keeps the model's whole name, the thinking level and the usage clear of each other and of Abort and Steer while it runs", async () => {
    const agent = fixture();
    await exchange(agent, "hello", "hi"); // usage to show beside the box
    agent.llm.enqueue({ text: Array.from({ length: 60 }, (_, i) => `word${i} `), delayMs: 100 });
    await typePrompt("Run for a while");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    await chatText("Abort beside the box", "vscode-button#abort:not([hidden])", () => true);
    await chatText("the usage beside the box", "#footer:not([hidden]) .context-label", () => true);
    const box = async (selector: string) => (await ui.webviewLayout(chatView, selector)).box;
    const name = numbers(await ui.webviewProperties(chatView, "#model-picker .model-name", ["scrollWidth", "clientWidth"]));
    await ui.screenshot(`sidebar-header-running-${variant.longAnswer ? "host" : "pi"}`);
    assert.ok(name.scrollWidth! <= name.clientWidth!, `the model's whole name shows: ${name.clientWidth}px of ${name.scrollWidth}px`);
    const [thinking, actions, footer, abort, model] = await Promise.all(["#thinking-picker", ".header-actions", "#footer", "vscode-button#abort", "#model"].map(box));
    // With pi, the editor-tools badge is in words too: under the name when there is no room beside it.
    const badge = await ui.webviewText(chatView, "#model").catch(() => "");
    if (!variant.longAnswer) assert.match(badge, /Editor tools on/);
    assert.ok(model.right <= actions.left + 0.5, `the model and its badges end before the header's buttons: ${model.right} vs ${actions.left}`);
    // pi's mock model has no thinking levels: its picker is hidden then (width 0).
    if (thinking.width > 0) assert.ok(thinking.right <= actions.left + 0.5, `the thinking level ends before the header's buttons: ${thinking.right} vs ${actions.left}`);
    else assert.equal(variant.longAnswer, undefined, "the bundled host's model has thinking levels");
    assert.ok(footer.right <= abort.left + 0.5, `the usage ends before Abort: ${footer.right} vs ${abort.left}`);
    const usage = numbers(await ui.webviewProperties(chatView, "#footer", ["scrollWidth", "clientWidth"]));
    assert.ok(usage.scrollWidth! <= usage.clientWidth! + 1, `the usage fits its room (wrapping): ${usage.clientWidth}px of ${usage.scrollWidth}px`);
    await ui.clickInWebview(chatView, "vscode-button#abort");
    await settled(agent);
  });

  it("shows an open question in two lines, folds it to one once answered; unfolded, it shows the whole question", async () => {
    const agent = fixture();
    const command = variant.command("echo first-line\necho second-line\necho third-line");
    agent.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "run three lines");
    await eventually("the question's quick pick", async () => (await ui.quickPickItems()).includes(variant.allow) || undefined);
    await chatText("the question's card", `.item-dialog[data-state="open"] [data-option="${variant.allow}"]`);
    const open = numbers(await ui.webviewProperties(chatView, ".item-dialog", ["offsetHeight", "clientWidth"]));
    // A line of the chat's text (its font size, spaced as text is).
    const line = 1.4 * parseFloat((await ui.webviewLayout(chatView, "body", ["font-size"])).styles["font-size"]!);
    if (variant.longAnswer) await ui.screenshot("sidebar-question-open");
    // A compact mirror of the quick pick (#32, 016: ~170 px of stacked buttons at 300 px): a line of
    // the question, a line of its answers, each answer inside the card and whole in its tooltip.
    assert.ok(open.offsetHeight! <= 3.5 * line, `the open question takes two lines: ${open.offsetHeight}px, a line ${line}px`);
    const options = await ui.webviewProperties(chatView, ".item-dialog .dialog-choices", ["innerText", "childElementCount"]);
    const middles: number[] = [];
    const card = (await ui.webviewLayout(chatView, ".item-dialog")).box;
    for (let i = 1; i <= Number(options.childElementCount); i++) {
      const choice = await ui.webviewLayout(chatView, `.item-dialog .dialog-choices > :nth-child(${i})`);
      assert.ok(choice.box.width > 0 && choice.box.left >= card.left - 0.5 && choice.box.right <= card.right + 0.5, `answer ${i} inside the card: ${JSON.stringify(choice.box)} in ${JSON.stringify(card)}`);
      middles.push((choice.box.top + choice.box.bottom) / 2);
    }
    assert.ok(Math.max(...middles) - Math.min(...middles) <= 3, `the answers on one line: ${String(options.innerText)} at ${middles.join(", ")}`);
    if (variant.longAnswer) {
      const long = await ui.webviewProperties(chatView, `.item-dialog [data-option^="${variant.longAnswer}"]`, ["title", "offsetWidth"]);
      assert.match(String(long.title), new RegExp(`^${variant.longAnswer}`), "the whole answer in its tooltip");
    }
    await ui.pickQuickPickItem(variant.allow);
    await settled(agent);
    await chatText("the answered card", ".item-dialog", (t) => t.includes("answered"));
    assert.equal((await ui.webviewProperties(chatView, ".item-dialog .dialog-fold", ["open"])).open, false, "folded");
    const folded = numbers(await ui.webviewProperties(chatView, ".item-dialog", ["offsetHeight"]));
    printFigures(`${variant.name}: an open question ${open.offsetHeight} px high in a ${open.clientWidth} px card, answered ${folded.offsetHeight} px`);
    assert.ok(folded.offsetHeight! <= 2 * line, `folded in place to one line: ${folded.offsetHeight}px, a line ${line}px (open ${open.offsetHeight}px)`);
    if (variant.longAnswer) await ui.screenshot("sidebar-question-folded");
    await ui.clickInWebview(chatView, ".item-dialog .dialog-fold > summary");
    await chatText("the unfolded question", ".item-dialog", (t) => t.includes("echo first-line") && t.includes("echo third-line"));
    const unfolded = numbers(await ui.webviewProperties(chatView, ".item-dialog", ["offsetHeight"]));
    assert.ok(unfolded.offsetHeight! >= folded.offsetHeight! + 30, `unfolded ${unfolded.offsetHeight}px, folded ${folded.offsetHeight}px: every line of the command`);
    if (variant.longAnswer) await ui.screenshot("sidebar-question-unfolded");
  });

  it("selects a message put back into the box, so that typing replaces it", async () => {
    const agent = fixture();
    await exchange(agent, "Explain the build script", "It bundles with esbuild.");
    await ui.clickInWebview(chatView, "#sessions-menu");
    await ui.clickInWebview(chatView, '.picker-option[data-value="forkFromMessage"]');
    await eventually("the fork quick pick", async () => (await ui.quickPickItems()).some((l) => l.startsWith("Explain the build script")) || undefined);
    await ui.pickQuickPickItem((await ui.quickPickItems()).find((l) => l.startsWith("Explain the build script"))!);
    await eventually("the message back in the box", async () => (await promptValue()) === "Explain the build script" || undefined);
    await ui.typeText("Summarise");
    assert.equal(await promptValue(), "Summarise", "typing replaced the message put back");
    await ui.clickInWebview(chatView, promptBox);
  });

  it("gives the sessions menu an icon of its own, not the Rewind arrow of a message", async () => {
    const agent = fixture();
    await exchange(agent, "hello", "hi");
    const menu = await ui.webviewProperties(chatView, "#sessions-menu .codicon", ["className"]);
    const rewind = await ui.webviewProperties(chatView, ".item-user [data-action='rewind'] .codicon", ["className"]);
    assert.notEqual(String(menu.className), String(rewind.className));
  });
});

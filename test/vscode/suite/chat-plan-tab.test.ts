// Approve plan in a chat in an editor tab while the side bar's chat is the active session (#32): both
// sessions plan; the tab's plan approved from the tab's own button approves the tab's session (its
// mode changes, its agent is told to go ahead, the picker names it), never the side bar's, which
// stays in plan mode with nothing sent to its agent.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { AgentSession } from "../../../extension/sessions/agent-session";
import { eventually } from "./agent-fixture";
import { chatView, openChat } from "./chat-support";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

const approve = "#plan [data-action='plan-approve']";
const todo = { name: "todo", arguments: { phases: [{ name: "Tab work", tasks: [{ content: "Read the tab's file", status: "pending" }, { content: "Change it", status: "pending" }] }] } };

async function toPlanMode(session: AgentSession): Promise<void> {
  const client = await session.supervisor.ensureStarted();
  await client.request("set_permission_mode", { mode: "plan" });
  await session.supervisor.agent.refresh(client);
}

const modeOf = (session: AgentSession) => session.supervisor.state?.permissionMode;
const userTexts = async (session: AgentSession) => {
  const client = await session.supervisor.ensureStarted();
  const { messages } = await client.request("get_messages", {});
  return messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
};

describe("Pi chat in an editor tab: Approve plan approves the tab's session, not the active side bar's", function () {
  this.timeout(150_000);
  let host: HostFixture;
  let tab: AgentSession | undefined;

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
    await openChat();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-plan-tab-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    if (tab) await host?.api.sessions.close(tab);
    await host?.api.sessions.primary.supervisor.client?.request("set_permission_mode", { mode: "ask" }).catch(() => undefined);
    await host?.dispose();
  });

  it("the tab's Approve plan, clicked with the side bar's chat active, changes the tab's mode only", async () => {
    const { api, llm } = host;
    const side = api.sessions.primary;
    const id = await vscode.commands.executeCommand<string>("pi.newSessionInTab");
    tab = api.sessions.get(id)!;
    const opened = tab;
    await eventually("the tab's agent", () => opened.supervisor.status === "idle" || undefined, 30_000);
    await eventually("the tab's chat to say Ready", async () => (await ui.webviewText(opened.label, "#status")) === "Ready" || undefined);
    await toPlanMode(side);
    await toPlanMode(opened);

    // The tab's agent plans and answers: its chat offers the decision.
    const count = llm.requests.length;
    llm.enqueue({ toolCalls: [todo] }, { text: "The tab's plan: read, then change." });
    await opened.chat.prompt("Plan the tab's work");
    await llm.waitForRequests(count + 2);
    await eventually("the tab's run to settle", () => opened.supervisor.status === "idle" || undefined, 30_000);
    await eventually("Approve plan in the tab", async () => /Approve plan/.test(await ui.webviewText(opened.label, approve).catch(() => "")) || undefined);
    const sideBefore = await userTexts(side);

    // The side bar's chat is the one the user works with (clicked), the tab still on screen beside it.
    await vscode.commands.executeCommand("pi.focusChat");
    await ui.clickInWebview(chatView, "#transcript");
    await eventually("the side bar's session active", () => api.sessions.active === side || undefined);
    await ui.screenshot("chat-plan-tab-before-approve");

    // The tab's own button: the approve picker, Auto-accept edits.
    const sent = llm.requests.length;
    llm.enqueue({ text: "Going ahead in the tab." });
    await ui.clickInWebview(opened.label, approve);
    await eventually("the approve picker", async () => (await ui.quickPickItems()).includes("Approve: Auto-accept edits") || undefined);
    assert.equal(await ui.text(".quick-input-widget .quick-input-title"), `Pi: Approve Plan — ${opened.label} (${opened.description})`, "the picker says whose plan it approves");
    await ui.pickQuickPickItem("Approve: Auto-accept edits");
    await llm.waitForRequests(sent + 1);
    await eventually("the tab's run to settle", () => opened.supervisor.status === "idle" || undefined, 30_000);

    await eventually("the tab's mode changed", () => modeOf(opened) === "acceptEdits" || undefined);
    assert.equal(modeOf(side), "plan", "the side bar's session still plans");
    assert.ok((await userTexts(opened)).some((t) => t.includes("The plan is approved. Go ahead.")), "the tab's agent was told to go ahead");
    assert.deepEqual(await userTexts(side), sideBefore, "nothing sent to the side bar's agent");
    await eventually("the tab's decision put away", async () => !/Approve plan/.test(await ui.webviewText(opened.label, "#plan").catch(() => "")) || undefined);
  });
});

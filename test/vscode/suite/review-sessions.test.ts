// The review's changes belong to the session whose agent made them (#32, the trial's shots 022/023):
// after the side bar's agent changed two files, a new chat in an editor tab shows no changes line
// (its Undo All would have undone the other session's work); the palette's Keep All acts on the
// session the user sees and says which; each chat's Undo All undoes only its own session's files;
// a closed tab's changes pass to the side bar's chat.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentSession } from "../../../extension/sessions/agent-session";
import type { MockToolCall } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatView, openChat } from "./chat-support";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

const folder = "review-sessions-test";
const changesLine = "#changes .changes-files";

/** The chat's changes line ("2 files changed"), or "" while it is hidden. */
async function changesShown(webview: string): Promise<string> {
  const { hidden } = await ui.webviewProperties(webview, "#changes", ["hidden"]);
  return hidden === true ? "" : ui.webviewText(webview, changesLine);
}

describe("agent sessions (#32s): each chat shows and acts on its own session's changes", function () {
  this.timeout(150_000);
  let host: HostFixture;
  let dir: string;
  let tab: AgentSession | undefined;
  const file = (name: string) => path.join(dir, name);
  const read = (name: string) => fs.readFileSync(file(name), "utf8");
  const edit = (name: string, oldText: string, newText: string): MockToolCall => ({ name: "edit", arguments: { path: `${folder}/${name}`, edits: [{ oldText, newText }] } });

  before(async function () {
    requireUi(this);
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global);
    host = await useBundledHost();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, folder);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    for (const name of ["a", "b", "c"]) fs.writeFileSync(file(`${name}.txt`), `${name} one\n${name} two\n`);
    // The files' own events are over before any run (they are not the agent's).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    host.api.sessions.focusPrimary();
    await vscode.commands.executeCommand("pi.review.keepAll");
    await openChat();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-review-sessions-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    if (tab) await host?.api.sessions.close(tab);
    host?.api.sessions.focusPrimary();
    await vscode.commands.executeCommand("pi.review.keepAll");
    await host?.dispose();
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a new tab's chat shows none of the side bar's changes, and the palette's Keep All there keeps none of them", async () => {
    const { api } = host;
    const primary = api.sessions.primary;
    host.llm.enqueue({ toolCalls: [edit("a.txt", "a two", "A TWO"), edit("b.txt", "b two", "B TWO")] }, { text: "Both edited." });
    await primary.chat.prompt("review sessions: edit a and b");
    await eventually("the side bar's changes line", async () => /^2 files changed/.test(await changesShown(chatView)) || undefined, 30_000);

    const id = await vscode.commands.executeCommand<string>("pi.newSessionInTab");
    tab = api.sessions.get(id)!;
    const opened = tab;
    await eventually("the tab's agent", () => opened.supervisor.status === "idle", 30_000);
    await eventually("the tab's chat to say Ready", async () => (await ui.webviewText(opened.label, "#status")) === "Ready" || undefined);
    // Its state has reached the webview (the plan and the changes line come with the header).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await ui.screenshot("review-sessions-new-tab");
    assert.equal(await changesShown(opened.label), "", "the new tab's chat shows no changes line");
    assert.equal(api.review.summary(opened.id).files, 0);
    assert.equal(api.review.summary(primary.id).files, 2);

    // The palette acts on the session the user sees (the tab): it has nothing to keep, and says so.
    await vscode.commands.executeCommand("pi.review.keepAll");
    await ui.waitForSelector(`.notifications-toasts .notification-toast:has-text("no changes of “${opened.label}”")`);
    assert.equal(api.review.summary(primary.id).files, 2, "the side bar's changes are still to review");
    assert.match(await changesShown(chatView), /^2 files changed/);
  });

  it("each chat's Undo All undoes only its own session's files; a closed tab's changes go to the side bar", async () => {
    const { api } = host;
    const opened = tab!;
    opened.reveal(); // its tab active: the chat's webview is found by the tab's title
    host.llm.enqueue({ toolCalls: [edit("c.txt", "c two", "C TWO")] }, { text: "c edited." });
    await opened.chat.prompt("review sessions: edit c");
    await eventually("the tab's changes line", async () => /^1 file changed/.test(await changesShown(opened.label)) || undefined, 30_000);
    assert.match(await changesShown(chatView), /^2 files changed/, "the side bar's line counts only its own");

    // The side bar's Undo All, clicked as a user does: a and b go back, c (the tab's) stays.
    api.sessions.focusPrimary();
    await vscode.commands.executeCommand("pi.focusChat");
    await ui.clickInWebview(chatView, '#changes [data-action="changes-undoAll"]');
    await eventually("a and b undone", () => (read("a.txt") === "a one\na two\n" && read("b.txt") === "b one\nb two\n") || undefined);
    assert.equal(read("c.txt"), "c one\nC TWO\n", "the tab's change is not undone");
    await eventually("the side bar's line to go", async () => (await changesShown(chatView)) === "" || undefined);
    assert.equal(api.review.summary(opened.id).files, 1);

    // The tab closes: its change still waits for review, in the side bar's chat.
    await api.sessions.close(opened);
    tab = undefined;
    await eventually("the closed tab's change in the side bar", async () => /^1 file changed/.test(await changesShown(chatView)) || undefined);
    assert.equal(api.review.summary(api.sessions.primary.id).files, 1);
  });
});

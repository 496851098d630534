// The bundled agent asks before risky tools (pi.permissions.confirmTools, on by default): the
// question is a native quick pick holding the whole command (in its title when it fits one
// line, else as rows above the answers); Deny blocks the call with a reason the model reads,
// and an allowance "for this session" covers only what its answer names.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { toolResultMessages } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { printFigures } from "./figures";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { requireUi, ui } from "./ui";

/** The question's rows as the quick pick's DOM shows them, joined (rows are cut at a fixed width). */
async function questionRows(): Promise<string> {
  const text = await ui.text(".quick-input-list");
  return text.slice(0, text.indexOf("Allow once")).replace(/\n/g, "").replace(/\u00a0/g, " ");
}

describe("permissions: the bundled agent asks before bash", function () {
  this.timeout(90_000);
  let host: HostFixture;
  /** What the tests checked; each zero below is asserted where it is counted. */
  const seen = { whole: 0, allowanceChecks: 0, parallel: 0, abortPlaces: 0 };

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
  });
  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    await ui.screenshot(`failed-permissions-${this.currentTest.title.slice(0, 30)}`);
    // Nothing of a failed test (its open question, its run, its unused replies) reaches the next.
    await vscode.commands.executeCommand("pi.abort");
    await eventually("the run to stop", () => host.api.supervisor.status === "idle");
    host.llm.discardPending();
  });
  after(async () => {
    printFigures(`questions checked whole ${seen.whole} (cut 0), allowance checks ${seen.allowanceChecks} (overreach 0), parallel questions answered ${seen.parallel} (lost 0, false dismissals 0), places checked after an abort ${seen.abortPlaces} (still waiting 0)`);
    await host?.dispose();
  });

  async function promptWithBash(command: string): Promise<number> {
    const before = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", `run ${command}`);
    return before;
  }

  async function settled(requestsBefore: number): Promise<void> {
    await host.llm.waitForRequests(requestsBefore + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
  }

  const lastResult = () => JSON.stringify(toolResultMessages(host.llm.requests.at(-1)!).at(-1));
  const question = () => eventually("the permission quick pick", async () => (await ui.quickPickItems()).includes("Deny") || undefined);

  it("shows the question as a quick pick and blocks the call on Deny", async () => {
    const before = await promptWithBash("echo secret-plan");
    await question();
    // Three short answers: the session's one names its scope.
    assert.deepEqual(await ui.quickPickItems(), ["Allow once", "Allow `echo` with any arguments for this session", "Deny"]);
    assert.equal(await ui.text(".quick-input-title"), "Allow bash: echo secret-plan");
    seen.whole++;
    await ui.screenshot("permission-question");
    await ui.pickQuickPickItem("Deny");
    await settled(before);
    assert.match(lastResult(), /denied this bash call/);
    assert.doesNotMatch(lastResult(), /secret-plan\\n/);
  });

  it("shows a long command whole, its tail included, before it runs", async () => {
    // In the workspace: the sandbox (pi.sandbox.mode, workspace-write) gives commands a /tmp of their own.
    const tailFile = path.join(workspaceRoot(), `pi-hidden-tail-${process.pid}-${Date.now()}`);
    const harmless = `echo ${"all-is-well ".repeat(20)}`.slice(0, 200);
    const command = `${harmless}; echo X > ${tailFile}`;
    const before = await promptWithBash(command);
    await question();
    assert.equal(await ui.text(".quick-input-title"), "Allow bash to run this command?");
    const shown = await questionRows();
    assert.equal(shown, command, "the quick pick shows the whole command");
    assert.ok(!fs.existsSync(tailFile), "nothing ran before the answer");
    seen.whole++;
    await ui.screenshot("permission-long-command");
    await ui.pickQuickPickItem("Allow once");
    await settled(before);
    assert.ok(fs.existsSync(tailFile), "the command the user saw whole ran, tail and all");
    fs.rmSync(tailFile, { force: true });
  });

  it("shows newlines and control characters in a command as visible marks, not as layout", async () => {
    const before = await promptWithBash("echo one\necho two\u202e\u0007 $(date)");
    await question();
    const shown = await questionRows();
    assert.equal(shown, "echo one↵echo two\\u{202e}\\x07 $(date)", "newline and controls visible, $(…) not drawn as an icon");
    seen.whole++;
    await ui.pickQuickPickItem("Deny");
    await settled(before);
    assert.match(lastResult(), /denied this bash call/);
  });

  it("shows $(…) in a short question's title as written, not as an icon", async () => {
    const before = await promptWithBash("echo $(zap) $(date)");
    await question();
    assert.equal(await ui.text(".quick-input-title"), "Allow bash: echo $(zap) $(date)");
    seen.whole++;
    await ui.pickQuickPickItem("Deny");
    await settled(before);
  });

  it("allows this exact command for the session, and asks again for a different one", async () => {
    // date is not a harmless program (date -s sets the clock): its session answer is the exact command.
    let before = await promptWithBash("date +exact-1");
    await question();
    await ui.pickQuickPickItem("Allow this exact command for this session");
    await settled(before);
    assert.match(lastResult(), /exact-1/);
    before = await promptWithBash("date +exact-2");
    await question();
    assert.equal(await ui.text(".quick-input-title"), "Allow bash: date +exact-2", "a second question appears");
    await ui.pickQuickPickItem("Deny");
    await settled(before);
    assert.match(lastResult(), /denied this bash call/);
    before = await promptWithBash("date +exact-1");
    await settled(before);
    assert.match(lastResult(), /exact-1/, "the allowed command runs without a question");
    seen.allowanceChecks += 2;
  });

  it("allows a harmless program with any literal arguments, never one followed by another command", async () => {
    let before = await promptWithBash("ls -d .");
    await question();
    await ui.pickQuickPickItem("Allow `ls` with any arguments for this session");
    await settled(before);
    before = await promptWithBash("ls -a .");
    await settled(before);
    assert.match(lastResult(), /package\.json/, "covered by the allowance: ran without a question");
    before = await promptWithBash("ls .; echo evil-ran");
    await question();
    assert.equal(await ui.text(".quick-input-title"), "Allow bash: ls .; echo evil-ran");
    await ui.pickQuickPickItem("Deny");
    await settled(before);
    assert.match(lastResult(), /denied this bash call/);
    assert.doesNotMatch(lastResult(), /evil-ran\\n/);
    seen.allowanceChecks += 2;
  });

  it("offers only the exact command for a program whose options run programs or write files", async () => {
    const before = await promptWithBash("git log --oneline");
    await question();
    assert.deepEqual(await ui.quickPickItems(), ["Allow once", "Allow this exact command for this session", "Deny"]);
    await ui.pickQuickPickItem("Deny");
    await settled(before);
    seen.allowanceChecks++;
  });

  it("has the change a question is about one key away: a row opens it as a diff beside, the question staying open", async () => {
    const file = path.join(workspaceRoot(), "change-shown.txt");
    fs.writeFileSync(file, "alpha\nbeta\n");
    const before = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ name: "edit", arguments: { path: "change-shown.txt", edits: [{ oldText: "beta", newText: "BETA FROM THE QUESTION" }] } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "edit the file");
    await question();
    assert.deepEqual((await ui.quickPickItems()).filter((item) => item.startsWith("Allow") || item === "Deny"), ["Allow once", "Allow changes to any file for this session", "Deny"]);
    await ui.pickQuickPickItem("Show the change beside");
    const diff = await eventually("the change's diff", () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === "change-shown.txt (Pi: edit)"));
    assert.ok(diff.input instanceof vscode.TabInputTextDiff);
    const after = await vscode.workspace.openTextDocument(diff.input.modified);
    assert.equal(after.getText(), "alpha\nBETA FROM THE QUESTION\n", "the diff's right side is the file as the edit would leave it");
    assert.equal(fs.readFileSync(file, "utf8"), "alpha\nbeta\n", "nothing written while the question is open");
    assert.ok((await ui.quickPickItems()).includes("Deny"), "the question is still open");
    await ui.screenshot("permission-change-beside");
    await ui.pickQuickPickItem("Allow once");
    await settled(before);
    assert.equal(fs.readFileSync(file, "utf8"), "alpha\nBETA FROM THE QUESTION\n");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("pi.review.keepAll");
  });

  it("asks with the whole change before a write to a protected file, even after an 'any file' allowance", async () => {
    let before = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ name: "write", arguments: { path: "plain-allowed.txt", content: "plain\n" } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "write a plain file");
    await question();
    await ui.pickQuickPickItem("Allow changes to any file for this session");
    await settled(before);
    before = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ name: "write", arguments: { path: ".vscode/tasks.json", content: '{"tasks":[{"command":"echo planted"}]}\n' } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "write the tasks");
    await question();
    const items = await ui.quickPickItems();
    assert.deepEqual(items.slice(-2), ["Allow once", "Deny"], "Allow once or Deny, no allowance for the session");
    assert.ok(!items.some((item) => item.includes("for this session")));
    const shown = await questionRows();
    assert.match(shown, /\.vscode\/tasks\.json/);
    assert.match(shown, /\+\{"tasks":\[\{"command":"echo planted"\}\]\}/, "the question shows the content the write would put there");
    await ui.screenshot("permission-protected-path");
    await ui.pickQuickPickItem("Deny");
    await settled(before);
    assert.match(lastResult(), /denied this write call/);
    seen.allowanceChecks++;
  });

  it("asks two parallel calls' questions one after the other, never reporting a dismissal, and runs both", async () => {
    await vscode.commands.executeCommand("pi.focusChat");
    host.api.chat.transcript.clear();
    const before = host.llm.requests.length;
    const call = (command: string) => ({ name: "bash", arguments: { command } });
    host.llm.enqueue({ toolCalls: [call("echo par-1"), call("echo par-2")] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "run both");
    const titles: string[] = [];
    for (let i = 0; i < 2; i++) {
      const title = await eventually(`question ${i + 1}`, async () => {
        if (!(await ui.quickPickItems().catch((): string[] => [])).includes("Deny")) return undefined;
        const shown = await ui.text(".quick-input-title").catch(() => "");
        return /^Allow bash: echo par-\d$/.test(shown) && !titles.includes(shown) ? shown : undefined;
      });
      titles.push(title);
      if (i === 0) await ui.screenshot("permission-two-questions");
      await ui.pickQuickPickItem("Allow once");
    }
    await settled(before);
    assert.deepEqual([...titles].sort(), ["Allow bash: echo par-1", "Allow bash: echo par-2"]);
    const results = JSON.stringify(toolResultMessages(host.llm.requests.at(-1)!));
    assert.match(results, /par-1\\n/);
    assert.match(results, /par-2\\n/);
    const cards = host.api.chat.transcript.snapshot().filter((item) => item.kind === "dialog");
    assert.deepEqual(cards.map((c) => c.kind === "dialog" && [c.state, c.via, c.nativeDismissed]), [["answered", "native", undefined], ["answered", "native", undefined]]);
    const chat = await eventually("both cards answered in the chat", async () => {
      const text = await ui.webviewText("Chat", "body");
      return (text.match(/answered in VS Code/g) ?? []).length === 2 && /echo par-1/.test(text) && /echo par-2/.test(text) ? text : undefined;
    });
    assert.doesNotMatch(chat, /Dismissed/);
    // Each question sits right after the card of the call it is about, not below both.
    const items = host.api.chat.transcript.snapshot();
    const beside = items.flatMap((item, i) => (item.kind === "dialog" ? [[items[i - 1]?.kind === "tool" ? (items[i - 1] as { args: { command?: string } }).args.command : items[i - 1]?.kind, item.title]] : []));
    assert.deepEqual(beside, [["echo par-1", "Allow bash: echo par-1"], ["echo par-2", "Allow bash: echo par-2"]]);
    assert.equal(await ui.webviewText("Chat", ".item-tool + .item-dialog + .item-tool + .item-dialog .dialog-title"), "Allow bash: echo par-2", "in the chat as well");
    seen.parallel += titles.length;
  });

  it("closes an open question everywhere when the run is aborted: quick pick, card, Sessions list, status bar", async () => {
    await vscode.commands.executeCommand("pi.sessions.focus"); // the list is collapsed by default
    await vscode.commands.executeCommand("pi.focusChat");
    host.api.chat.transcript.clear();
    await promptWithBash("echo never-ran");
    await question();
    const sessionRow = '.pane:has(.pane-header h3.title:text-is("Sessions")) .monaco-list-row'; // the side bar's session is the first
    await eventually("the Sessions list to say waiting", async () => (await ui.text(sessionRow)).includes("waiting for you") || undefined);
    await ui.clickInWebview("Chat", "vscode-button#abort");
    await eventually("the agent to be idle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);

    const agreeNotWaiting = async (when: string) => {
      await eventually(`the chat header to say Ready ${when}`, async () => (await ui.webviewText("Chat", "#status")) === "Ready" || undefined);
      await ui.waitForSelector(".quick-input-widget", "hidden");
      await eventually(`the card to say Cancelled ${when}`, async () => (await ui.webviewText("Chat", ".item-dialog")).includes("Cancelled") || undefined);
      const card = await ui.webviewText("Chat", ".item-dialog");
      assert.doesNotMatch(card, /Allow once|Deny|Dismissed/, `no live buttons on the card ${when}: ${card}`);
      await eventually(`the Sessions list to stop waiting ${when}`, async () => !(await ui.text(sessionRow)).includes("waiting") || undefined);
      await eventually(`the status bar to stop waiting ${when}`, async () => !(await ui.text(".statusbar-item:has-text(\"Pi\")")).includes("waiting") || undefined);
      assert.equal(host.api.sessions.primary.pending.size, 0, `no pending question ${when}`);
      assert.notEqual(host.api.status.current?.state, "waiting-for-dialog");
      seen.abortPlaces += 5;
    };
    await agreeNotWaiting("after the abort");
    await ui.screenshot("permission-aborted");
    await host.prompt("and now?", "Fine.");
    await agreeNotWaiting("after a new prompt");
    assert.doesNotMatch(JSON.stringify(toolResultMessages(host.llm.requests.at(-1)!)), /never-ran\\n/);
  });
});

// Checkpoints and rewind with the bundled agent: it records the files its write and edit tools
// change; Pi: Rewind to Message… shows the changes in a diff, then restores the files (a file
// the turn created is deleted) and forks the session before that message.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { MockToolCall } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatView, openChat } from "./chat-support";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

interface SessionLine {
  type: string;
  id?: string;
  parentSession?: string;
  message?: { role: string; content: unknown };
}

function sessionLines(file: string): SessionLine[] {
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as SessionLine);
}

const userTexts = (lines: SessionLine[]) => lines.filter((l) => l.type === "message" && l.message?.role === "user").map((l) => JSON.stringify(l.message?.content));

describe("checkpoints: rewind files and conversation to a user message", function () {
  this.timeout(120_000);
  let host: HostFixture;
  let dir: string;
  const original = { a: "alpha: first version\n", b: "beta: first version\n" };
  const file = (name: string) => path.join(dir, name);
  const read = (name: string) => fs.readFileSync(file(name), "utf8");

  before(async function () {
    requireUi(this);
    const config = vscode.workspace.getConfiguration("pi");
    // No permission questions in the way: this suite is about what happens after the tools ran.
    await config.update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global);
    host = await useBundledHost();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "rewind-test");
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    fs.writeFileSync(file("a.txt"), original.a);
    fs.writeFileSync(file("b.txt"), original.b);
    await openChat();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await host?.dispose();
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A prompt whose first reply makes these tool calls, then says "done". */
  async function promptWithTools(text: string, toolCalls: MockToolCall[]): Promise<void> {
    const count = host.llm.requests.length;
    host.llm.enqueue({ toolCalls }, { text: "done" });
    await vscode.commands.executeCommand("pi.sendPrompt", text);
    await host.llm.waitForRequests(count + 2);
    await host.settled();
  }
  const edit = (name: string, oldText: string, newText: string): MockToolCall => ({ name: "edit", arguments: { path: `rewind-test/${name}`, edits: [{ oldText, newText }] } });

  it("restores three files (deleting the one the turn created) and forks the session before the message", async () => {
    await host.prompt("checkpoint suite: hello", "Hello.");
    await promptWithTools("checkpoint suite: change three files", [
      { name: "write", arguments: { path: "rewind-test/new.txt", content: "created by the agent\n" } },
      edit("a.txt", "first", "second"),
      edit("b.txt", "first", "second"),
    ]);
    assert.equal(read("a.txt"), "alpha: second version\n");
    assert.equal(read("b.txt"), "beta: second version\n");
    assert.equal(read("new.txt"), "created by the agent\n");
    const before = await host.state();
    assert.ok(before.sessionFile && fs.existsSync(before.sessionFile));

    const rewound = vscode.commands.executeCommand("pi.rewind");
    await eventually("the message pick", async () => (await ui.quickPickItems()).includes("checkpoint suite: change three files") || undefined);
    assert.deepEqual(await ui.quickPickItems(), ["checkpoint suite: change three files", "checkpoint suite: hello"]);
    await ui.pickQuickPickItem("checkpoint suite: change three files");
    await eventually("the mode pick", async () => (await ui.quickPickItems()).includes("Files and conversation") || undefined);
    assert.deepEqual(await ui.quickPickItems(), ["Files and conversation", "Files only", "Conversation only"]);
    await ui.pickQuickPickItem("Files and conversation");
    const apply = "Restore 3 files and fork the conversation";
    await eventually("the confirmation", async () => (await ui.quickPickItems()).includes(apply) || undefined);
    // The diff is open while the user decides, and nothing has changed yet.
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    assert.ok(tabs.some((label) => label.startsWith("Rewind to")), `a diff tab among ${JSON.stringify(tabs)}`);
    assert.equal(read("a.txt"), "alpha: second version\n");
    await ui.screenshot("rewind-diff");
    await ui.pickQuickPickItem(apply);
    await rewound;
    await eventually("the diff to close", () => !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label.startsWith("Rewind to"))));

    // On disk: the files as they were before the message; the file it created is gone.
    assert.equal(read("a.txt"), original.a);
    assert.equal(read("b.txt"), original.b);
    assert.equal(fs.existsSync(file("new.txt")), false);

    // The conversation: a new session file holding what came before the message, with the old one as parent.
    const after = await eventually("the forked session", async () => {
      const state = await host.state();
      return state.sessionFile !== before.sessionFile ? state : undefined;
    });
    assert.ok(after.sessionFile);
    await host.prompt("checkpoint suite: after the rewind", "Fine.");
    const lines = sessionLines(after.sessionFile);
    assert.equal(lines[0].type, "session");
    assert.equal(lines[0].parentSession, before.sessionFile);
    assert.deepEqual(userTexts(lines).map((t) => t.match(/checkpoint suite: [a-z ]+/)?.[0]), ["checkpoint suite: hello", "checkpoint suite: after the rewind"]);
    assert.equal(userTexts(sessionLines(before.sessionFile!)).length, 2, "the old session file keeps its messages");
  });

  it("rewinds only the files from the Rewind button of a message in the chat", async () => {
    await promptWithTools("checkpoint suite: edit a again", [edit("a.txt", "first", "third")]);
    assert.equal(read("a.txt"), "alpha: third version\n");
    const sessionFile = (await host.state()).sessionFile;
    const item = await eventually("the user message in the transcript", () =>
      host.api.chat.transcript.snapshot().find((i) => i.kind === "user" && i.text.includes("edit a again")),
    );
    await ui.screenshot("rewind-button");
    await ui.clickInWebview(chatView, `[data-key="${item.key}"] button[data-action="rewind"]`);
    await eventually("the mode pick", async () => (await ui.quickPickItems()).includes("Files only") || undefined);
    await ui.pickQuickPickItem("Files only");
    await eventually("the confirmation", async () => (await ui.quickPickItems()).includes("Restore 1 file") || undefined);
    await ui.pickQuickPickItem("Restore 1 file");
    await eventually("a.txt restored", () => read("a.txt") === original.a);
    assert.equal((await host.state()).sessionFile, sessionFile, "the conversation is not forked");
  });

  it("records the editor's own edits (editor_edit, buffer only) and rewinds the buffer too", async () => {
    const config = vscode.workspace.getConfiguration("pi");
    await config.update("hostTools.reviewEdits", false, vscode.ConfigurationTarget.Global);
    try {
      fs.writeFileSync(file("c.txt"), "gamma\n");
      const document = await vscode.workspace.openTextDocument(file("c.txt"));
      await vscode.window.showTextDocument(document);
      await promptWithTools("checkpoint suite: edit the buffer", [{ name: "editor_edit", arguments: { path: "rewind-test/c.txt", edits: [{ oldText: "gamma", newText: "GAMMA" }] } }]);
      assert.equal(document.getText(), "GAMMA\n");
      assert.equal(read("c.txt"), "gamma\n", "editor_edit changes the buffer, not the file");
      const rewound = vscode.commands.executeCommand("pi.rewind", { mode: "files" });
      await eventually("the message pick", async () => (await ui.quickPickItems()).includes("checkpoint suite: edit the buffer") || undefined);
      await ui.pickQuickPickItem("checkpoint suite: edit the buffer");
      await eventually("the confirmation", async () => (await ui.quickPickItems()).includes("Restore 1 file") || undefined);
      await ui.pickQuickPickItem("Restore 1 file");
      await rewound;
      assert.equal(document.getText(), "gamma\n");
      assert.equal(document.isDirty, false);
      assert.equal(read("c.txt"), "gamma\n");
    } finally {
      await config.update("hostTools.reviewEdits", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

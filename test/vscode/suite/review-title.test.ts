// The review diff's title bar (#32, the trial's 013): one pair of ↑↓, VS Code's own change
// navigation in a diff; ours there only for what it adds (to the next or previous changed file),
// with other icons and titles. In the file's plain editor, where VS Code has no arrows, ours go
// from change to change.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { useHostSuite } from "./host-fixture";
import { ui } from "./ui";

const titleActions = ".editor-group-container.active .editor-actions";

/** The active editor's title actions: each one's label and the classes of its element (its icon). */
async function actions(): Promise<{ labels: string[]; classOf: (label: RegExp) => string }> {
  const html = await ui.html(titleActions);
  const tags = [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1] ?? "";
  const labels = tags.map((t) => attr(t, "aria-label")).filter(Boolean);
  return { labels, classOf: (label) => attr(tags.find((t) => label.test(attr(t, "aria-label"))) ?? "", "class") };
}

// VS Code's "Previous Change" and ours "Go to Previous Change": both an ↑ from change to change.
const up = /^(Go to )?Previous Change\b/;
const down = /^(Go to )?Next Change\b/;

describe("review diff title bar: one pair of change arrows", function () {
  this.timeout(120_000);
  const suiteHost = useHostSuite();
  const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  const names = ["title-a.txt", "title-b.txt"];

  before(async () => {
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("pi.review.keepAll");
    for (const name of names) fs.writeFileSync(path.join(root(), name), "one\ntwo\nthree\nfour\nfive\nsix\nseven\n");
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("pi.review.keepAll");
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global);
    for (const name of names) fs.rmSync(path.join(root(), name), { force: true });
  });

  it("shows VS Code's ↑↓ in the diff and ours only to go to another file; ours alone in the plain editor", async () => {
    const host = suiteHost();
    const edit = (name: string) => ({ name: "edit", arguments: { path: name, edits: [{ oldText: "two", newText: "TWO" }, { oldText: "six", newText: "SIX" }] } });
    const count = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: names.map(edit) }, { text: "done" });
    await vscode.commands.executeCommand("pi.sendPrompt", "review title: change two files");
    await host.llm.waitForRequests(count + 2);
    await host.settled();
    await eventually("two files to review", () => host.api.review.files().filter((f) => names.includes(path.basename(f.path))).length === 2 || undefined, 20_000);

    await vscode.commands.executeCommand("pi.review.openDiff", vscode.Uri.file(path.join(root(), names[0]!)));
    await eventually("the review diff", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `${names[0]} (Pi: before ↔ now)` || undefined);
    const diff = await eventually("the diff's title actions", async () => {
      const shown = await actions();
      return shown.labels.some((l) => l.startsWith("Keep Changes in File")) ? shown : undefined;
    });
    await ui.screenshot("review-title-diff");
    const said = (shown: { labels: string[] }) => shown.labels.join(" | ");
    assert.equal(diff.labels.filter((l) => up.test(l)).length, 1, `one ↑ in the diff's title: ${said(diff)}`);
    assert.equal(diff.labels.filter((l) => down.test(l)).length, 1, `one ↓ in the diff's title: ${said(diff)}`);
    assert.ok(!diff.labels.some((l) => l.startsWith("Go to Next Change (") || l.startsWith("Go to Previous Change (") || l === "Go to Next Change" || l === "Go to Previous Change"), `VS Code's, not ours: ${said(diff)}`);
    // Ours where it adds something: to the other file, with an icon of its own.
    assert.ok(diff.labels.some((l) => l.startsWith("Go to Next Changed File")), `ours to the next file: ${said(diff)}`);
    const ours = diff.classOf(/^Go to Next Changed File/);
    const theirs = diff.classOf(/^Next Change\b/);
    assert.ok(ours !== "" && ours !== theirs, `another icon: "${ours}" vs VS Code's "${theirs}"`);
    // Each pair together (#32 trial: ours and VS Code's alternated, ↑ file, ↑ change, ↓ file, ↓ change).
    const at = (pattern: RegExp) => diff.labels.findIndex((l) => pattern.test(l));
    assert.ok(at(/^Next Change\b/) < at(/^Go to Previous Changed File/), `VS Code's pair, then ours: ${said(diff)}`);
    assert.equal(at(/^Go to Next Changed File/), at(/^Go to Previous Changed File/) + 1, `ours side by side: ${said(diff)}`);

    // Ours takes the user to the other file's diff.
    await ui.click(`${titleActions} .action-label[aria-label^="Go to Next Changed File"]`);
    await eventually("the next file's diff", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `${names[1]} (Pi: before ↔ now)` || undefined);

    // The plain editor of a changed file: no arrows of VS Code's, ours from change to change.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), names[1]!)), { preview: false });
    const plain = await eventually("the plain editor's title actions", async () => {
      const shown = await actions();
      return shown.labels.some((l) => l.startsWith("Go to Next Change")) ? shown : undefined;
    });
    assert.equal(plain.labels.filter((l) => up.test(l)).length, 1, `one ↑ in the plain editor: ${said(plain)}`);
    assert.equal(plain.labels.filter((l) => down.test(l)).length, 1, `one ↓ in the plain editor: ${said(plain)}`);
    assert.ok(!plain.labels.some((l) => l.startsWith("Go to Next Changed File")), `no file arrows where the change arrows cross files: ${said(plain)}`);
  });
});

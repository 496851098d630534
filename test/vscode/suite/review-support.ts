// Shared steps of the review suite: the Changes view and the review's diff as a user drives them,
// its folder of files (made before any run, their file events in), and the scripted agent's runs
// that change them.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { MockToolCall } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import type { HostFixture } from "./host-fixture";
import { ui } from "./ui";

/** The suite's folder in the workspace. */
export const reviewFolder = "review-test";
// The view's own pane (its title is exactly "Changes").
export const pane = '.pane:has(.pane-header h3.title:text-is("Changes"))';
// A row is named by its path and what changed (its accessible label).
export const row = (name: string) => `${pane} .monaco-list-row[aria-label^=${JSON.stringify(`${reviewFolder}/${name},`)}]`;
export const modified = ".monaco-diff-editor .editor.modified";

/** A file's content: each line ended by a newline. */
export const text = (...lines: string[]) => lines.map((l) => `${l}\n`).join("");

/** Opens a file's review diff from its row, as a user does. A click on a row the tree is just
 * redrawing only selects it (VS Code's tree): Enter then opens it. */
export async function openRowDiff(name: string): Promise<void> {
  await ui.click(row(name));
  const diffOpen = () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `${name} (Pi: before ↔ now)` || undefined;
  await eventually(`${name}'s diff`, diffOpen, 5_000).catch(async () => {
    await ui.pressKey("Enter");
    return eventually(`${name}'s diff`, diffOpen);
  });
}

/**
 * Writes the files into `dir` (a workspace folder's `reviewFolder`) and waits for their file events:
 * then no agent's run takes them for its own. A new watcher misses what happens before it is set
 * up: a probe is written until it reports it, then the files; events come in order.
 */
export async function writeWatched(dir: string, files: Record<string, string>): Promise<void> {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.workspace.workspaceFolders![0], `${reviewFolder}/*`));
  const seen = new Set<string>();
  watcher.onDidCreate((uri) => seen.add(uri.fsPath));
  watcher.onDidChange((uri) => seen.add(uri.fsPath));
  const file = (name: string) => path.join(dir, name);
  try {
    await eventually("the watcher to be ready", () => (fs.writeFileSync(file("probe"), String(Date.now())), seen.has(file("probe")) || undefined));
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(file(name), content);
    await eventually("the files' events", () => Object.keys(files).every((name) => seen.has(file(name))) || undefined);
  } finally {
    watcher.dispose();
  }
}

/** The agent's edit call of a file of the suite's folder: each pair replaces its old text by its new one. */
export const edit = (name: string, edits: [string, string][]): MockToolCall => ({
  name: "edit",
  arguments: { path: `${reviewFolder}/${name}`, edits: edits.map(([oldText, newText]) => ({ oldText, newText })) },
});

/** Sends `prompt`; the agent makes `calls`, then says "done". Resolves once the run has settled. */
export async function agentRun(host: HostFixture, prompt: string, calls: MockToolCall[]): Promise<void> {
  const count = host.llm.requests.length;
  host.llm.enqueue({ toolCalls: calls }, { text: "done" });
  await vscode.commands.executeCommand("pi.sendPrompt", prompt);
  await host.llm.waitForRequests(count + 2);
  await host.settled();
}

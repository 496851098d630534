// Checkpoints with pi 0.87.1 as the agent: the extension loads its Pi extension
// (dist/pi-checkpoints.js, `-e`) into pi, which records each file in `tool_call`, before pi's
// write or edit changes it. Watching tool_execution_start from the editor came too late (the
// files had already changed: lost 2 of 2, and the rewind said "No file changes were recorded").
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually, usePiAgent, type AgentFixture } from "./agent-fixture";
import { openChat } from "./chat-support";
import { requireUi, ui } from "./ui";

describe("checkpoints with pi 0.87.1: rewind restores pi's write and edit", function () {
  this.timeout(120_000);
  let agent: AgentFixture | undefined;
  let dir: string;
  const original = { x: "x: first version\n", y: "y: first version\n" };
  const file = (name: string) => path.join(dir, name);
  const read = (name: string) => fs.readFileSync(file(name), "utf8");

  before(async function () {
    requireUi(this);
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "rewind-pi");
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    fs.writeFileSync(file("x.txt"), original.x);
    fs.writeFileSync(file("y.txt"), original.y);
    agent = await usePiAgent();
    await openChat();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await agent?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a write and an edit of existing files: Files and conversation puts both back on disk", async () => {
    const { api, llm } = agent!;
    const count = llm.requests.length;
    llm.enqueue(
      {
        toolCalls: [
          { name: "write", arguments: { path: "rewind-pi/y.txt", content: "y: rewritten by pi\n" } },
          { name: "edit", arguments: { path: "rewind-pi/x.txt", edits: [{ oldText: "first", newText: "second" }] } },
        ],
      },
      { text: "done" },
    );
    await vscode.commands.executeCommand("pi.sendPrompt", "pi checkpoints: change two files");
    await llm.waitForRequests(count + 2);
    await eventually("the run to settle", () => api.supervisor.status === "idle");
    assert.equal(read("y.txt"), "y: rewritten by pi\n");
    assert.equal(read("x.txt"), "x: second version\n");

    const rewound = vscode.commands.executeCommand("pi.rewind");
    await eventually("the message pick", async () => (await ui.quickPickItems()).includes("pi checkpoints: change two files") || undefined);
    await ui.pickQuickPickItem("pi checkpoints: change two files");
    const modes = await eventually("the mode pick", async () => {
      const items = await ui.quickPickItems();
      return items.includes("Conversation only") ? items : undefined;
    });
    assert.deepEqual(modes, ["Files and conversation", "Files only", "Conversation only"], "both files can be restored");
    await ui.pickQuickPickItem("Files and conversation");
    const apply = "Restore 2 files and fork the conversation";
    await eventually("the confirmation", async () => (await ui.quickPickItems()).includes(apply) || undefined);
    await ui.screenshot("rewind-pi-confirm");
    await ui.pickQuickPickItem(apply);
    await rewound;
    assert.equal(read("y.txt"), original.y);
    assert.equal(read("x.txt"), original.x);
  });
});

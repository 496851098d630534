// After the user undoes an agent's change, the agent is told with the next message, once, and only
// the conversation that made the change (#32 trial: it was never told, and went on from files no
// longer as it left them). The bundled agent writes two files; the user undoes them with Undo All.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { messageText } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { openChat } from "./chat-support";
import { useBundledHost, type HostFixture } from "./host-fixture";

describe("review: the agent is told what the user undid", function () {
  this.timeout(120_000);
  let host: HostFixture;
  let dir: string;
  const undone = '<context type="undone">';

  before(async () => {
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global);
    host = await useBundledHost();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "undone-test");
    fs.rmSync(dir, { recursive: true, force: true });
    await vscode.commands.executeCommand("pi.review.keepAll");
    await openChat();
  });
  after(async () => {
    await vscode.commands.executeCommand("pi.review.keepAll");
    await host?.dispose();
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The text of the last user message of the model's request at `index`. */
  const userText = (index: number) => messageText(host.llm.requests[index]!.body.messages.filter((m) => m.role === "user").at(-1)!);
  // Only this suite's files: an earlier suite's session may still hold changes of its own.
  const mine = () => host.api.review.files().filter((f) => f.path.startsWith(`${dir}${path.sep}`)).length;
  const write = (name: string, content: string) => ({ name: "write", arguments: { path: `undone-test/${name}`, content } });

  async function runThatWrites(prompt: string, ...names: string[]): Promise<void> {
    const count = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: names.map((name) => write(name, `${name} by the agent\n`)) }, { text: "done" });
    await vscode.commands.executeCommand("pi.sendPrompt", prompt);
    await host.llm.waitForRequests(count + 2);
    await host.settled();
    await eventually(`${names.length} files to review`, () => mine() === names.length || undefined, 20_000);
  }

  /** Sends a prompt the model answers with text; the last user message the model got. */
  async function ask(prompt: string): Promise<string> {
    const next = host.llm.requests.length;
    host.llm.enqueue({ text: "ok" });
    await vscode.commands.executeCommand("pi.sendPrompt", prompt);
    await host.llm.waitForRequests(next + 1);
    await host.settled();
    return userText(next);
  }

  it("the next message names the files undone, once", async () => {
    await runThatWrites("undone suite: write two", "one.txt", "two.txt");
    await vscode.commands.executeCommand("pi.review.undoAll");
    await eventually("nothing of ours left to review", () => mine() === 0 || undefined);
    assert.equal(fs.existsSync(path.join(dir, "one.txt")), false);

    const told = await ask("undone suite: after the undo");
    assert.ok(told.includes(undone), told);
    for (const name of ["one.txt", "two.txt"]) assert.ok(told.includes(`undone-test/${name}`), `${name} named: ${told}`);
    const again = await ask("undone suite: and after that");
    assert.ok(!again.includes(undone), again);
  });

  // The review read the file mid-write (the agent's get_state answer came between the write's
  // open and its data) and the test undid before the editor had read the tool's end: Undo All then
  // asked first (1 round in 7 failed, waiting for the model's request instead of the run's end).
  it("Undo All right after each of twenty runs deletes the file the run created, without asking", async () => {
    for (let round = 0; round < 20; round++) {
      await runThatWrites(`undone suite: round ${round}`, `round-${round}.txt`);
      await vscode.commands.executeCommand("pi.review.undoAll");
      await eventually(`round ${round}: nothing of ours left to review`, () => mine() === 0 || undefined, 5000);
      assert.equal(fs.existsSync(path.join(dir, `round-${round}.txt`)), false);
    }
  });

  it("a new conversation is told nothing of the last one's undone changes", async () => {
    await runThatWrites("undone suite: one more", "three.txt");
    await vscode.commands.executeCommand("pi.review.undoAll");
    await eventually("nothing of ours left to review", () => mine() === 0 || undefined);
    await vscode.commands.executeCommand("pi.newSession");
    const text = await ask("undone suite: a new conversation");
    assert.ok(!text.includes(undone), text);
  });
});

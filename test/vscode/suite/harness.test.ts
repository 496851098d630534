// Self-tests of the harness: the real VS Code API is here, and the UI bridge drives the page.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import { harnessEnv } from "../bridge-protocol";
import { ui, requireUi } from "./ui";

describe("real-VS-Code harness", () => {
  it("runs inside the expected VS Code with the sample workspace", () => {
    const expected = process.env[harnessEnv.expectedVersion];
    if (expected) assert.equal(vscode.version, expected);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, "a workspace folder is open");
    assert.ok(fs.existsSync(vscode.Uri.joinPath(folder.uri, "src", "greet.ts").fsPath));
  });

  describe("UI bridge", function () {
    before(function () {
      requireUi(this);
    });
    afterEach(async () => {
      await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
    });

    it("picks a quick pick item as a user", async () => {
      const picked = vscode.window.showQuickPick(["Alpha", "Beta", "Gamma"], { placeHolder: "Pick a letter" });
      assert.deepEqual(await ui.quickPickItems(), ["Alpha", "Beta", "Gamma"]);
      await ui.pickQuickPickItem("Beta");
      assert.equal(await picked, "Beta");
    });

    it("types into an input box", async () => {
      const answer = vscode.window.showInputBox({ prompt: "Your name" });
      await ui.inputBoxType("Ada Lovelace");
      assert.equal(await answer, "Ada Lovelace");
    });

    it("takes a screenshot of the workbench", async () => {
      const file = await ui.screenshot("harness-self-test");
      const header = fs.readFileSync(file).subarray(0, 8);
      assert.deepEqual([...header], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    });
  });
});

// Runs last (files run in name order): deactivating the extension stops the agent process.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import * as vscode from "vscode";
import { activateExtension, eventually, extensionId } from "./agent-fixture";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("deactivation", function () {
  this.timeout(30_000);

  it("stops the agent process", async () => {
    const api = await activateExtension();
    await api.supervisor.ensureStarted();
    const pid = api.supervisor.pid;
    assert.ok(pid && alive(pid), "the agent runs");
    // The extension host loaded dist/extension.js with Node's require: the same module instance.
    const main = require(path.join(vscode.extensions.getExtension(extensionId)!.extensionPath, "dist", "extension.js")) as { deactivate(): Promise<void> };
    await main.deactivate();
    await eventually("the agent process to exit", () => !alive(pid));
    assert.equal(api.supervisor.client, undefined);
  });
});

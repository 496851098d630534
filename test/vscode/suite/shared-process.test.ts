// The bundled host's shared process (pi.agent.shareProcess) in the real editor: a session started
// while sharing was off still counts as one running alone, so once sharing is turned on the next
// session joins a shared process instead of starting a second process of its own (found by the
// eight-agent benchmark: the side chat restarted before the setting reached the window, and a tab
// then started alone).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { useHostSuite } from "./host-fixture";

/** The command line of a process, or "" once it is gone. */
function cmdline(pid: number | undefined): string {
  try {
    return pid ? fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ") : "";
  } catch {
    return "";
  }
}

describe("shared process: sessions of the bundled host share one", function () {
  this.timeout(120_000);
  const suiteHost = useHostSuite();
  const config = () => vscode.workspace.getConfiguration("pi");
  after(async () => config().update("agent.shareProcess", undefined, vscode.ConfigurationTarget.Global));

  it("counts a session started while sharing was off: once it is on, the next session shares a process", async () => {
    const { api } = suiteHost();
    const primary = api.sessions.primary;
    await config().update("agent.shareProcess", false, vscode.ConfigurationTarget.Global);
    await primary.supervisor.restart();
    await eventually("the side chat's agent, alone", () => (primary.supervisor.status === "idle" && !cmdline(primary.supervisor.pid).includes("--pool")) || undefined, 30_000);
    await config().update("agent.shareProcess", true, vscode.ConfigurationTarget.Global);
    const id = await vscode.commands.executeCommand<string>("pi.newSessionInTab");
    const tab = api.sessions.get(id);
    assert.ok(tab, "the new session is listed");
    try {
      await eventually("the tab's agent to be ready", () => tab.supervisor.status === "idle" || undefined, 30_000);
      assert.match(cmdline(tab.supervisor.pid), / --pool/, `the tab's agent runs in a shared process: ${cmdline(tab.supervisor.pid)}`);
      assert.notEqual(tab.supervisor.pid, primary.supervisor.pid);
    } finally {
      await api.sessions.close(tab);
    }
  });
});

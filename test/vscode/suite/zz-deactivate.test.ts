// Runs last (files run in name order): deactivating the extension — the editor closing — while
// the bundled agent waits on a permission dialog, on an editor host tool (an edit review) and on
// a running shell command stops the agent: deactivate() returns, and neither the agent process
// nor the shell it started is left (checked by pid).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually, extensionId } from "./agent-fixture";
import { printFigures } from "./figures";
import { useBundledHost } from "./host-fixture";
import { reviewTabs, writeWorkspaceFile } from "./host-tools-support";
import { ui, uiAvailable } from "./ui";

/** What /proc says of a process: its state letter, parent and command line ("" once it is gone). */
function describeProcess(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    return `pid ${pid} state ${state} ppid ${ppid}: ${cmdline}`;
  } catch {
    return "";
  }
}

/** Running (a zombie waiting for its parent to reap it runs nothing and holds nothing but its pid). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/ state Z /.test(describeProcess(pid));
}

describe("deactivation", function () {
  this.timeout(90_000);

  it("stops the agent while it waits on a dialog, a host tool and a shell, leaving no process", async () => {
    const host = await useBundledHost();
    const { api, llm } = host;
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", ["write"], vscode.ConfigurationTarget.Global);
    // The shell's pid as the host sees it (a sandboxed shell's $$ is a pid of its own namespace);
    // the sandbox's own clean-up at exit is test/reliability/host-sandbox's.
    await vscode.workspace.getConfiguration("pi").update("sandbox.mode", "full-access", vscode.ConfigurationTarget.Global);
    await eventually("the agent to restart with the new policy", async () => (await host.state()) && api.supervisor.status === "idle");
    const client = await api.supervisor.ensureStarted();
    const file = writeWorkspaceFile("src/deactivate.txt", "hello\n");
    const pidFile = path.join(path.dirname(file.fsPath), "deactivate-shell.pid");
    llm.enqueue({
      toolCalls: [
        { name: "bash", arguments: { command: `echo $$ > ${pidFile}; exec sleep 120` } },
        { name: "editor_edit", arguments: { path: "src/deactivate.txt", edits: [{ oldText: "hello", newText: "bye" }] } },
        { name: "write", arguments: { path: "src/deactivate-new.txt", content: "new" } },
      ],
    });
    void client.request("prompt", { message: "do three things" }).catch(() => undefined);
    const shellPid = await eventually("the shell to start", () => fs.existsSync(pidFile) && Number(fs.readFileSync(pidFile, "utf8").trim()));
    await eventually("the edit review to open", () => reviewTabs().length > 0);
    await eventually("the permission question", () => api.supervisor.agent.openDialogs > 0);
    if (uiAvailable()) await ui.waitForSelector('.quick-input-widget .quick-input-title:has-text("Allow write: src/deactivate-new.txt")', "visible");
    const agentPid = api.supervisor.pid;
    assert.ok(agentPid && alive(agentPid) && alive(shellPid), "the agent and its shell run");

    // The extension host loaded dist/extension.js with Node's require: the same module instance.
    const main = require(path.join(vscode.extensions.getExtension(extensionId)!.extensionPath, "dist", "extension.js")) as { deactivate(): Promise<void> };
    const hang = await Promise.race([main.deactivate().then(() => false), new Promise<boolean>((r) => setTimeout(r, 30_000, true))]);
    const survivors = await eventually("the processes to be gone", () => ([agentPid, shellPid].every((pid) => !alive(pid)) ? [] : undefined), 10_000).catch(() =>
      [agentPid, shellPid].filter(alive),
    );
    printFigures(`waits at deactivation 3 (dialog, host tool, shell), hangs ${hang ? 1 : 0}, orphans ${survivors.length}${survivors.map((pid) => `; ${pid === agentPid ? "agent" : "shell"} ${describeProcess(pid)}`).join("")}`);
    for (const pid of survivors) process.kill(pid, "SIGKILL");
    assert.equal(hang, false, "deactivate() returned");
    assert.deepEqual(survivors, [], "no process outlived the extension");
    assert.equal(api.supervisor.client, undefined);
    await eventually("the review to close", () => reviewTabs().length === 0);
    await llm.close();
  });
});

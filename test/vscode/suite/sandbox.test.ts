// The sandbox in the real editor (#30): with the default settings the bundled agent's bash runs in
// bubblewrap (the extension passes pi.sandbox.mode), so a command writing into .vscode/ is refused
// by the sandbox, and running it outside is asked with the whole command; Deny leaves nothing
// written. With pi.sandbox.mode full-access, the chat header says Full access. What a command's
// links do to the editor's saves is the save guard's suite (save-guard.test.ts).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { messageText, toolResultMessages } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView } from "./chat-support";
import { useHostSuite } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { ui } from "./ui";

describe("sandbox: the agent's commands run sandboxed, and the chat says when they are not", function () {
  this.timeout(120_000);
  const suiteHost = useHostSuite();
  const probe = () => path.join(workspaceRoot(), ".vscode", "pi-sandbox-probe.json");
  after(async () => {
    fs.rmSync(probe(), { force: true });
    await vscode.workspace.getConfiguration("pi").update("sandbox.mode", undefined, vscode.ConfigurationTarget.Global);
  });

  it("refuses a write into .vscode/ and asks, showing the whole command, before running it outside", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.focusChat");
    const command = `echo '{"tasks":[]}' > .vscode/pi-sandbox-probe.json && echo written`;
    const before = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "write the task file");
    // The permission question first (bash is in pi.permissions.confirmTools), then the sandbox's.
    await eventually("the permission question", async () => (await ui.quickPickItems()).includes("Allow once") || undefined);
    await ui.pickQuickPickItem("Allow once");
    await eventually("the sandbox's question", async () => (await ui.quickPickItems()).includes("Run outside the sandbox once") || undefined);
    assert.deepEqual((await ui.quickPickItems()).slice(-2), ["Run outside the sandbox once", "Deny"], "only once or Deny");
    const shown = `${await ui.text(".quick-input-title")}\n${(await ui.quickPickItems()).join("\n")}`;
    const card = await chatText("the sandbox question in the chat", ".transcript", (text) => text.includes("Run it again outside the sandbox"));
    assert.ok(card.replace(/\s+/g, " ").includes(command.replace(/\s+/g, " ")) || shown.includes(command), "the whole command is shown");
    assert.equal(fs.existsSync(probe()), false, "nothing was written inside the sandbox");
    await ui.screenshot("sandbox-run-outside-question");
    await ui.pickQuickPickItem("Deny");
    await host.llm.waitForRequests(before + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
    assert.equal(fs.existsSync(probe()), false, "Deny: still nothing written");
    const result = toolResultMessages(host.llm.requests.at(-1)!).map(messageText).join("\n");
    assert.match(result, /sandbox/i, "the model reads that the sandbox stopped it");
  });

  it("marks the sandbox's placeholders in the Explorer while a command runs (the empty .envrc bwrap makes): what they are", async () => {
    const host = suiteHost();
    // The workspace has no .envrc of its own; while any sandbox lives (an earlier suite's agent run
    // sandboxed whole, kept running) the placeholder may be there already: it is one all the same.
    const name = ".envrc";
    const stub = path.join(workspaceRoot(), name);
    assert.ok(!fs.existsSync(stub) || fs.statSync(stub).size === 0, "no .envrc of the workspace's own");
    await vscode.commands.executeCommand("workbench.view.explorer");
    const before = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "sleep 8" } }] }, { text: "done" });
    void vscode.commands.executeCommand("pi.sendPrompt", "wait a while");
    await eventually("the permission question", async () => (await ui.quickPickItems()).includes("Allow once") || undefined);
    await ui.pickQuickPickItem("Allow once");
    await eventually("the placeholder made", () => fs.existsSync(stub) || undefined, 20_000);
    const row = `.explorer-folders-view .monaco-list-row[aria-label="${name}"]`;
    await ui.waitForSelector(row, "visible", 10_000);
    // Decorated: VS Code puts the decoration's classes on the row's label (its badge and colour rules).
    const html = await eventually("the row decorated", async () => {
      const text = await ui.html(row);
      return /monaco-decoration-itemBadge/.test(text) ? text : undefined;
    });
    // The row's tooltip (VS Code 1.100's .monaco-hover, a .workbench-hover in newer ones), hovered again until it shows.
    const hover = ".monaco-hover:visible, .workbench-hover:visible";
    await eventually(`the row's tooltip (${html})`, async () => {
      await ui.hover(`${row} .monaco-icon-label`);
      return (await ui.text(hover).catch(() => "")).includes("Placeholder of the sandbox") || undefined;
    });
    await ui.screenshot("sandbox-placeholder-in-explorer");
    await host.llm.waitForRequests(before + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
    await vscode.commands.executeCommand("pi.focusChat");
  });

  it("says Full access in the chat header when the sandbox is turned off", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.focusChat");
    const restarted = new Promise<void>((resolve) => {
      const sub = host.api.supervisor.onReady(() => (sub.dispose(), resolve()));
    });
    await vscode.workspace.getConfiguration("pi").update("sandbox.mode", "full-access", vscode.ConfigurationTarget.Global);
    await restarted;
    const badge = await chatText("the sandbox badge", "#sandbox-badge", (text) => text.includes("Full access"));
    assert.equal(badge.trim(), "Full access");
    const { title } = await ui.webviewProperties(chatView, "#sandbox-badge", ["title"]);
    assert.match(String(title), /no sandbox/);
    await ui.screenshot("sandbox-full-access-header");
    const back = new Promise<void>((resolve) => {
      const sub = host.api.supervisor.onReady(() => (sub.dispose(), resolve()));
    });
    await vscode.workspace.getConfiguration("pi").update("sandbox.mode", undefined, vscode.ConfigurationTarget.Global);
    await back;
    await eventually("the badge gone", async () => (await ui.webviewProperties(chatView, "#sandbox-badge", ["hidden"])).hidden === true || undefined);
  });
});

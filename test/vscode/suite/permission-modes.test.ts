// Permission modes with the bundled agent: Plan (picked from Pi: Set Permission Mode) refuses a
// write, the status bar says Plan and the model is told; Approve Plan with "Auto-accept edits"
// sends the go-ahead and the same write runs without a question. The chat header switches modes too.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { messageText, toolResultMessages } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { useHostSuite } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { ui } from "./ui";

describe("permission modes: plan refuses changes until the plan is approved", function () {
  this.timeout(90_000);
  const suiteHost = useHostSuite();
  const target = () => path.join(workspaceRoot(), "plan-mode.txt");
  after(async () => {
    fs.rmSync(target(), { force: true });
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
  });

  it("refuses a write in plan mode and runs it after Approve Plan", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.focusChat");
    fs.rmSync(target(), { force: true });
    const write = { name: "write", arguments: { path: "plan-mode.txt", content: "written\n" } };

    void vscode.commands.executeCommand("pi.setPermissionMode");
    await eventually("the mode picker", async () => (await ui.quickPickItems()).includes("Plan") || undefined);
    await ui.pickQuickPickItem("Plan");
    await ui.waitForSelector('.statusbar-item:has-text("Plan")');
    assert.equal((await host.state()).permissionMode, "plan");

    let count = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [write] }, { text: "I will propose a plan." });
    void vscode.commands.executeCommand("pi.sendPrompt", "Write plan-mode.txt");
    await host.llm.waitForRequests(count + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
    const refused = toolResultMessages(host.llm.requests.at(-1)!).map(messageText).join("\n");
    assert.match(refused, /Plan mode: .* this write call was not run/);
    assert.equal(fs.existsSync(target()), false, "nothing written in plan mode");
    assert.match(JSON.stringify(host.llm.requests.at(-1)!.body.messages), /The user switched to plan mode/);
    await ui.screenshot("permission-mode-plan");

    count = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [write] }, { text: "Done." });
    void vscode.commands.executeCommand("pi.approvePlan");
    await eventually("the approve picker", async () => (await ui.quickPickItems()).includes("Approve: Auto-accept edits") || undefined);
    await ui.pickQuickPickItem("Approve: Auto-accept edits");
    await host.llm.waitForRequests(count + 2);
    await eventually("the run to settle", async () => host.api.supervisor.status === "idle" && !(await host.state()).isStreaming);
    assert.equal(fs.readFileSync(target(), "utf8"), "written\n", "the write ran without a question");
    const goAhead = JSON.stringify(host.llm.requests[count]!.body.messages);
    assert.match(goAhead, /The user left plan mode/);
    assert.match(goAhead, /The plan is approved\. Go ahead\./);
    await ui.waitForSelector('.statusbar-item:has-text("Auto-edits")');
  });

  it("switches the mode from the chat header, for that chat's session", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.focusChat");
    await eventually("the header's mode button", async () => (await ui.webviewProperties("Chat", "#mode-picker", ["hidden", "ariaLabel"]).catch(() => undefined)));
    await ui.clickInWebview("Chat", "#mode-picker");
    const list = await eventually("the header's mode picker", async () => {
      const text = await ui.webviewText("Chat", '.picker[data-picker="mode-picker"], .picker').catch(() => "");
      return text.includes("Full auto") ? text : undefined;
    });
    for (const label of ["Ask", "Auto-accept edits", "Plan", "Full auto"]) assert.ok(list.includes(label), `${label} in ${list}`);
    await ui.screenshot("permission-mode-header-picker");
    await ui.clickInWebview("Chat", '.picker-option[data-value="plan"]');
    await eventually("the agent in plan mode", async () => ((await host.state()).permissionMode === "plan") || undefined);
    await ui.waitForSelector('.statusbar-item:has-text("Plan")');
    await eventually("the header to show Plan", async () => /Plan/.test(String((await ui.webviewProperties("Chat", "#mode-picker", ["ariaLabel"])).ariaLabel)) || undefined);
    // And back to Ask.
    await ui.clickInWebview("Chat", "#mode-picker");
    await eventually("the picker again", async () => (await ui.webviewText("Chat", ".picker").catch(() => "")).includes("Ask") || undefined);
    await ui.clickInWebview("Chat", '.picker-option[data-value="ask"]');
    await eventually("the agent back in Ask", async () => ((await host.state()).permissionMode === "ask") || undefined);
    await eventually("the header to show Ask", async () => /Ask/.test(String((await ui.webviewProperties("Chat", "#mode-picker", ["ariaLabel"])).ariaLabel)) || undefined);
  });

  it("gives a session its mode back when it is opened again", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.focusChat");
    const earlier = (await host.state()).sessionFile;
    await vscode.commands.executeCommand("pi.newSession");
    await eventually("a session of its own", async () => ((await host.state()).sessionFile !== earlier) || undefined);
    await host.prompt("A session planned with care.", "Noted.");
    const planned = (await host.state()).sessionFile;
    await vscode.commands.executeCommand("pi.setPermissionMode", "plan");
    await eventually("plan mode", async () => ((await host.state()).permissionMode === "plan") || undefined);

    await vscode.commands.executeCommand("pi.newSession");
    await eventually("a new session", async () => ((await host.state()).sessionFile !== planned) || undefined);
    await vscode.commands.executeCommand("pi.setPermissionMode", "ask");
    await host.prompt("Another session, asking.", "Sure.");
    await eventually("the new session in Ask", async () => ((await host.state()).permissionMode === "ask") || undefined);

    // Resume the planned session from the list, as a user would: it comes back in Plan.
    const resumed = vscode.commands.executeCommand("pi.resumeSession");
    const label = await eventually("the sessions list", async () => (await ui.quickPickItems()).find((l) => l.startsWith("A session planned with care")));
    await ui.pickQuickPickItem(label);
    await resumed;
    await eventually("the planned session back", async () => ((await host.state()).sessionFile === planned) || undefined);
    await eventually("its mode back", async () => ((await host.state()).permissionMode === "plan") || undefined);
    await ui.waitForSelector('.statusbar-item:has-text("Plan")');
  });
});

// An agent that does not start, as a user meets it (#32): in the chat, one entry saying what failed
// with the three things to do there (Retry, Show Log, Open Settings), reached from the keyboard;
// Retry once the cause is fixed starts the agent and the entry goes. With the chat hidden the
// failure is a notification instead, and that notification goes too when a start succeeds (a plain
// toast outlived its cause: VS Code cannot close one).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { eventually, extensionId } from "./agent-fixture";
import { chatView, openChat, shiftTabTo } from "./chat-support";
import { configureAgent, useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

const entry = "#transcript .item-error";
const button = (action: string) => `${entry} [data-action='start-${action}']`;
const failureToast = '.notifications-toasts .notification-toast:has-text("did not start")';

async function transcriptText(): Promise<string> {
  return ui.webviewText(chatView, "#transcript");
}

async function readyOnHost(api: PiExtensionApi): Promise<void> {
  await eventually("the agent to start", () => api.supervisor.status === "idle" || undefined, 60_000);
}

describe("Pi chat: an agent that does not start, with what to do about it", function () {
  this.timeout(180_000);
  let host: HostFixture;
  let dir: string | undefined;
  let hostEnv: Record<string, string> | undefined;
  /** While it is missing the agent fails as a bad install does; once there it runs our host. */
  let fixed: string;

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
    hostEnv = vscode.workspace.getConfiguration("pi").inspect<Record<string, string>>("agent.env")?.globalValue;
    // In the workspace: a configured agent runs sandboxed, with a /tmp of its own.
    dir = fs.mkdtempSync(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "start-failure-"));
    fixed = path.join(dir, "fixed");
    const hostScript = path.join(vscode.extensions.getExtension(extensionId)!.extensionPath, "dist", "agent-host.js");
    fs.writeFileSync(path.join(dir, "agent.js"), [
      `if (!require("node:fs").existsSync(${JSON.stringify(fixed)})) {`,
      "  console.error('Error: cannot find module ./missing-piece');",
      "  process.exit(1);",
      "}",
      `require(${JSON.stringify(hostScript)});`,
    ].join("\n"));
    await openChat();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-start-failure-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    await configureAgent(undefined, undefined, hostEnv);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    // The script was written into the workspace while an agent ran: no change of the agent's to review after this suite.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await vscode.commands.executeCommand("pi.review.keepAll");
    await host?.dispose();
  });

  it("offers Retry, Show Log and Open Settings in the chat, from the keyboard; Retry once fixed starts the agent and the entry goes", async () => {
    const { api } = host;
    fs.rmSync(fixed, { force: true });
    await configureAgent(process.execPath, [path.join(dir!, "agent.js")], hostEnv);
    await eventually("the failure in the chat", async () => (await transcriptText()).includes("did not start") || undefined, 30_000);
    await ui.screenshot("chat-start-failure-300px");
    assert.match(await ui.webviewText(chatView, entry), /cannot find module \.\/missing-piece/);
    const labels = await Promise.all(["retry", "showLog", "openSettings"].map((a) => ui.webviewText(chatView, button(a))));
    assert.deepEqual(labels.map((l) => l.trim()), ["Retry", "Show Log", "Open Settings"]);

    // Show Log: the Pi output channel, holding the failure.
    await ui.clickInWebview(chatView, button("showLog"));
    await ui.waitForSelector('.part.panel .view-lines:has-text("did not start")', "visible", 10_000);
    await vscode.commands.executeCommand("workbench.action.closePanel");

    // Open Settings from the keyboard (Shift+Tab from the message box, Enter): the agent's settings.
    await shiftTabTo("start-openSettings");
    await ui.pressKey("Enter");
    await ui.waitForSelector('.settings-editor .search-container .view-lines:has-text("pi.agent")', "visible", 10_000);
    await ui.waitForSelector('.settings-editor .setting-item-contents:has-text("Command")', "visible", 10_000);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await vscode.commands.executeCommand("pi.focusChat");

    // Retry while still broken: it fails again, still one entry.
    const failedBefore = api.supervisor.startFailure;
    await ui.clickInWebview(chatView, button("retry"));
    await eventually("the retry to fail", () => api.supervisor.status === "crashed" || undefined, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await transcriptText()).split("did not start").length - 1, 1, "one failure in the chat");
    assert.equal(api.supervisor.startFailure, failedBefore);

    // Fixed: Retry starts it, the entry goes, the chat says Ready.
    fs.writeFileSync(fixed, "");
    await shiftTabTo("start-retry");
    await ui.pressKey("Enter");
    await readyOnHost(api);
    await eventually("the entry to go", async () => !(await transcriptText()).includes("did not start") || undefined);
    await eventually("the chat to say Ready", async () => (await ui.webviewText(chatView, "#status")) === "Ready" || undefined);
  });

  it("an agent installed under /tmp, which the sandbox replaces with its own: says so and what to do", async () => {
    const { api } = host;
    fs.writeFileSync(fixed, "");
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pi-agent-in-tmp-"));
    try {
      const script = path.join(tmp, "agent.js");
      fs.copyFileSync(path.join(dir!, "agent.js"), script);
      await configureAgent(process.execPath, [script], hostEnv);
      await eventually("the failure in the chat", async () => (await transcriptText()).includes("did not start") || undefined, 30_000);
      // Before: the sandboxed node's own "Cannot find module '/tmp/…/agent.js'", no hint of why.
      const said = await ui.webviewText(chatView, entry);
      assert.ok(said.includes(`${script} is in a folder the sandbox replaces`), said);
      assert.match(said, /Install the agent in another folder/);
      assert.equal(api.supervisor.status, "crashed");
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    await configureAgent(process.execPath, [path.join(dir!, "agent.js")], hostEnv);
    await readyOnHost(api);
  });

  it("a command line the system refuses to spawn (a NUL character in an argument): says so, and what it held goes", async () => {
    const { api } = host;
    fs.writeFileSync(fixed, "");
    // Node's spawn throws at once for it: before, the status stayed "Starting agent…" with no entry.
    await configureAgent(process.execPath, [path.join(dir!, "agent.js"), "bad\u0000argument"], hostEnv);
    await eventually("the failure in the chat", async () => (await transcriptText()).includes("did not start") || undefined, 30_000);
    assert.match(await ui.webviewText(chatView, entry), /null bytes|\\0|must be a string without null bytes|ERR_INVALID_ARG_VALUE/i);
    assert.equal(api.supervisor.status, "crashed");
    await configureAgent(process.execPath, [path.join(dir!, "agent.js")], hostEnv);
    await readyOnHost(api);
  });

  it("with the chat hidden, a notification says it; a start that succeeds takes the notification away", async () => {
    const { api } = host;
    fs.rmSync(fixed, { force: true });
    await vscode.commands.executeCommand("workbench.view.explorer"); // the chat's side bar shows the Explorer
    await eventually("the chat hidden", () => !api.sessions.primary.surface.visible || undefined);
    await vscode.commands.executeCommand("pi.restartAgent");
    await ui.waitForSelector(failureToast, "visible", 30_000);
    // What to do, as links in its text, in view: the toast expanded (collapsed, VS Code cuts it to
    // one line, the links out of sight); a still bar (nothing is under way, unlike a restart's notice).
    await ui.waitForSelector(`${failureToast} .notification-list-item.expanded`, "visible", 5_000);
    for (const link of ["Open Settings", "Restart", "Show Log"]) await ui.waitForSelector(`${failureToast} a:has-text("${link}")`);
    await ui.waitForSelector(`${failureToast} .monaco-progress-container.infinite`, "hidden", 1_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // faded in
    await ui.screenshot("start-failure-toast");

    // Fixed, and started again (as the notification's Restart or the status bar does): the notification goes.
    fs.writeFileSync(fixed, "");
    await vscode.commands.executeCommand("pi.restartAgent");
    await readyOnHost(api);
    await ui.waitForSelector(failureToast, "hidden", 10_000);
    await openChat();
  });
});

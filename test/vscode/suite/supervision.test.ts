// Supervision of the bundled agent host in the real VS Code: a killed agent comes back with its
// session, queued texts are offered again, the crash limit stops the restarts with a clear
// message, the status bar item restarts it, and an untrusted workspace gets no agent at all. A
// notification of the agent being down (crashed, given up, untrusted) goes once it is up again.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import { AgentSupervisor } from "../../../extension/supervision/agent-supervisor";
import { eventually } from "./agent-fixture";
import { messageTexts, useBundledHost, type HostFixture } from "./host-fixture";
import { chatText, openChat, typePrompt } from "./chat-support";
import { requireUi, ui } from "./ui";

const toast = (text: string) => `.notification-toast:has-text(${JSON.stringify(text)})`;

describe("agent supervision", function () {
  this.timeout(120_000);
  let host: HostFixture;

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
    host.api.supervisor.policy.options = { maxCrashes: 3, windowMs: 60_000, baseDelayMs: 300, maxDelayMs: 2000 };
  });
  afterEach(() => vscode.commands.executeCommand("notifications.clearAll"));
  after(async () => {
    if (host) host.api.supervisor.policy.options = { maxCrashes: 5, windowMs: 180_000, baseDelayMs: 1000, maxDelayMs: 30_000 };
    await host?.dispose();
  });

  /** SIGKILLs the agent and waits until another process is ready. */
  async function killAndWaitForRestart(): Promise<number> {
    const pid = host.api.supervisor.pid!;
    process.kill(pid, "SIGKILL");
    return eventually("a restarted agent", () => {
      const next = host.api.supervisor.pid;
      return next !== undefined && next !== pid && host.api.supervisor.status === "idle" ? next : undefined;
    });
  }

  it("restarts a killed agent and reopens the same session file with its messages; the crash's notification goes once it is back", async () => {
    await host.prompt("Remember the word banana.", "I will remember banana.");
    const before = await host.state();
    assert.ok(before.sessionFile && fs.existsSync(before.sessionFile), "the session is saved");
    // A back-off long enough to see the notification while the restart waits.
    host.api.supervisor.policy.options = { maxCrashes: 3, windowMs: 60_000, baseDelayMs: 3000, maxDelayMs: 3000 };
    const restarted = killAndWaitForRestart();
    await ui.waitForSelector(toast("exited unexpectedly"), "visible");
    await restarted;
    host.api.supervisor.policy.options = { maxCrashes: 3, windowMs: 60_000, baseDelayMs: 300, maxDelayMs: 2000 };
    // Back: the notification said what no longer is (VS Code's plain toasts cannot be closed).
    await ui.waitForSelector(toast("exited unexpectedly"), "hidden", 5_000);
    const after = await host.state();
    assert.equal(after.sessionFile, before.sessionFile);
    assert.equal(after.sessionId, before.sessionId);
    assert.equal(after.model?.id, "mock-a");
    const texts = await messageTexts(host.api);
    assert.ok(texts.some((t) => t.includes("Remember the word banana.")), "the user message is back");
    assert.ok(texts.some((t) => t.includes("I will remember banana.")), "the reply is back");
    // The model sees the earlier turn again.
    await host.prompt("What was the word?");
    assert.match(JSON.stringify(host.llm.requests.at(-1)?.body.messages), /Remember the word banana/);
  });

  it("keeps the first prompt of a new session when the agent dies before its reply", async () => {
    host.api.supervisor.policy.reset(); // a crash of its own, not counted with the other tests'
    await vscode.commands.executeCommand("pi.newSession");
    await openChat();
    host.llm.enqueue({ kind: "hang" });
    const count = host.llm.requests.length;
    await typePrompt("First words of a new session.");
    await host.llm.waitForRequests(count + 1); // the model is being called; no reply yet
    const before = await host.state();
    await killAndWaitForRestart();
    const after = await host.state();
    assert.equal(after.sessionFile, before.sessionFile, "the restart reopened the new session");
    const texts = await messageTexts(host.api);
    assert.ok(texts.some((t) => t.includes("First words of a new session.")), "the prompt is in the session");
    await chatText("the prompt in the chat after the restart", "#transcript", (text) => text.includes("First words of a new session."));
    await host.prompt("Go on.");
    assert.match(JSON.stringify(host.llm.requests.at(-1)?.body.messages), /First words of a new session\./, "the model sees it");
  });

  it("offers the steering that a crash did not deliver, and sends it again", async () => {
    host.llm.enqueue({ text: ["Working"], hangAfterChunks: true });
    const count = host.llm.requests.length;
    void vscode.commands.executeCommand("pi.sendPrompt", "Take your time.");
    await host.llm.waitForRequests(count + 1);
    await eventually("the run to start", () => host.api.supervisor.status === "running");
    await vscode.commands.executeCommand("pi.steer", "Also check the tests.");
    await eventually("the queued steering", () => host.api.supervisor.agent.queue.view.queue.steering.includes("Also check the tests."));
    assert.match(host.api.status.current?.text ?? "", /\+1 queued/);
    await killAndWaitForRestart();
    const button = `${toast("1 queued message was not delivered")} .monaco-button:has-text("Send Again")`;
    await ui.waitForSelector(button, "visible");
    await ui.click(button);
    await host.llm.waitForRequests(count + 2);
    await eventually("the run to settle", () => host.api.supervisor.status === "idle");
    assert.match(JSON.stringify(host.llm.requests.at(-1)?.body.messages.at(-1)), /Also check the tests\./);
  });

  it("gives up after the crash limit with a clear message; the status bar item restarts it", async () => {
    host.api.supervisor.policy.reset();
    const { sessionFile } = await host.state();
    await killAndWaitForRestart();
    await killAndWaitForRestart();
    process.kill(host.api.supervisor.pid!, "SIGKILL");
    await ui.waitForSelector(toast("will not be restarted automatically"), "visible");
    await eventually("the crashed state", () => host.api.supervisor.status === "crashed" && host.api.supervisor.agent.restart?.gaveUp);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(host.api.supervisor.status, "crashed", "no automatic restart after the limit");
    assert.equal(host.api.status.current?.state, "crashed");
    const item = '.statusbar-item:has-text("Pi: crashed")';
    await ui.waitForSelector(item, "visible");
    await ui.screenshot("status-crashed");
    await ui.click(`${item} a`);
    await eventually("the agent restarted from the status bar", () => host.api.supervisor.status === "idle");
    assert.equal((await host.state()).sessionFile, sessionFile);
    await ui.waitForSelector(toast("will not be restarted automatically"), "hidden", 5_000);
  });

  it("restarts on the Restart Agent command, keeping the session", async () => {
    const before = await host.state();
    const pid = host.api.supervisor.pid;
    await vscode.commands.executeCommand("pi.restartAgent");
    assert.notEqual(host.api.supervisor.pid, pid);
    assert.equal(host.api.supervisor.status, "idle");
    assert.equal((await host.state()).sessionFile, before.sessionFile);
    assert.match(host.api.status.current?.text ?? "", /Pi: Mock mock-a/);
  });

  it("does not start an agent in an untrusted workspace, and starts it once trust is granted", async () => {
    const grant = new vscode.EventEmitter<void>();
    const trust = { isTrusted: false, onDidGrant: grant.event };
    const log = vscode.window.createOutputChannel("Pi Agent (untrusted test)", { log: true });
    const extensionPath = vscode.extensions.getExtension("pi-agent.pi-agent-vscode")!.extensionPath;
    const supervisor = new AgentSupervisor({ extensionPath, log, trust });
    try {
      await assert.rejects(supervisor.ensureStarted(), /untrusted workspace/);
      assert.equal(supervisor.pid, undefined, "no process was started");
      assert.match(supervisor.agent.blockedReason ?? "", /Trust the workspace/);
      await ui.waitForSelector(toast("does not start an agent in an untrusted workspace"), "visible");
      trust.isTrusted = true;
      grant.fire();
      await eventually("the agent to start once trusted", () => supervisor.status === "idle" && supervisor.pid !== undefined);
      assert.equal(supervisor.agent.blockedReason, undefined);
      await ui.waitForSelector(toast("does not start an agent in an untrusted workspace"), "hidden", 5_000);
    } finally {
      await supervisor.stop();
      supervisor.dispose();
      log.dispose();
      grant.dispose();
    }
  });
});

// Parallel sessions: two agents at once (the side panel's and one in an editor tab), each with
// its own process, stream and dialogs; the sessions list and the status bar show what each does;
// a notification asks for the pending permission and answers it, and goes once the question is
// answered anywhere; closing a busy tab keeps its
// agent; the terminal handoff opens `pi --session FILE`.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentSession } from "../../../extension/sessions/agent-session";
import { messageText, splitChunks, type MockTurn, type RecordedRequest } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

const alphaReply = "Alpha streams its own reply, one small piece after another, in the side panel.";

/** Replies by what the request is about, whichever session sends it. */
function route(request: RecordedRequest): MockTurn {
  const text = messageText(request.body.messages.filter((m) => m.role === "user").at(-1)!);
  if (text.includes("beta task")) {
    return request.body.messages.at(-1)?.role !== "tool" ? { toolCalls: [{ name: "bash", arguments: { command: "echo beta-ran" } }] } : { text: "Beta is done." };
  }
  if (text.includes("gamma task")) return { kind: "hang" };
  return { text: splitChunks(alphaReply, 40), delayMs: 150 };
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function logTail(folder: string): string {
  const files = fs.readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".log"));
  return files.map((f) => fs.readFileSync(path.join(folder, f), "utf8").split("\n").slice(-15).join("\n")).join("\n");
}

function nextTerminal(): Promise<vscode.Terminal> {
  return new Promise((resolve) => {
    const sub = vscode.window.onDidOpenTerminal((t) => {
      sub.dispose();
      resolve(t);
    });
  });
}

function transcriptText(session: AgentSession): string {
  return JSON.stringify(session.chat.transcript.snapshot());
}

describe("parallel sessions", function () {
  this.timeout(120_000);
  let host: HostFixture;
  let second: AgentSession | undefined;
  const config = () => vscode.workspace.getConfiguration("pi");

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
    await config().update("notifications.attention", "always", vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    if (second) await host?.api.sessions.close(second);
    await config().update("notifications.attention", undefined, vscode.ConfigurationTarget.Global);
    await config().update("terminal.command", undefined, vscode.ConfigurationTarget.Global);
    await config().update("agent.args", undefined, vscode.ConfigurationTarget.Global);
    await host?.dispose();
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`sessions-${this.currentTest.title.replace(/\W+/g, "-")}`);
  });

  it("runs two agents at once with their own streams, dialogs, status and notifications", async () => {
    const { api } = host;
    const primary = api.sessions.primary;
    const id = await vscode.commands.executeCommand<string>("pi.newSessionInTab");
    second = api.sessions.get(id);
    assert.ok(second, "the new session is listed");
    const tab = second;
    await eventually("the tab's agent to be ready", () => tab.supervisor.status === "idle", 30_000);
    // An agent each: a process each, or a worker each in one shared process (pi.agent.shareProcess).
    assert.notEqual(tab.supervisor.state?.sessionId, primary.supervisor.state?.sessionId, "an agent session each");
    if (!vscode.workspace.getConfiguration("pi").get<boolean>("agent.shareProcess")) assert.notEqual(tab.supervisor.pid, primary.supervisor.pid, "one process per session");
    assert.ok(alive(tab.supervisor.pid) && alive(primary.supervisor.pid));
    assert.equal(api.sessions.all.length, 2);

    for (let i = 0; i < 6; i++) host.llm.enqueue(route);
    const shownBefore = api.attention.shown.length;
    await primary.chat.prompt("alpha task: write a long reply");
    await eventually("alpha to stream", () => primary.activity === "running" || undefined);
    await tab.chat.prompt("beta task: run a command");

    await eventually("the tab's agent to wait for the permission", () => tab.activity === "waiting" || undefined, 20_000);
    assert.equal(primary.activity, "running", "the other session streams on meanwhile");
    assert.match(api.sessionsStatus.text, /\$\(sync~spin\) 1/);
    assert.match(api.sessionsStatus.text, /\$\(bell-dot\) 1/);
    const notice = await eventually("a notification for the pending question", () =>
      api.attention.shown.slice(shownBefore).find((n) => n.sessionId === tab.id && n.kind === "dialog"),
    );
    assert.deepEqual(notice.actions, ["Show", "Allow once", "Deny", "Answer…"]);
    assert.equal(tab.pending.list.length, 1, "the question is answerable from the sessions list");

    // Answer it with the notification's own button.
    const toast = `.notifications-toasts .notification-toast:has-text("${tab.label}")`;
    await ui.waitForSelector(toast);
    await ui.screenshot("sessions-two-running-one-waiting");
    await vscode.commands.executeCommand("pi.sessions.focus");
    // The list in the Pi Session panel (its header shows only beside the Plan and Changes views).
    await ui.waitForSelector('.pane:has(.pane-header h3.title:text-is("Sessions")) .monaco-list-row');
    await ui.screenshot("sessions-list-waiting");
    // Its answers are links in its text (a notification that can be closed has no buttons of its own).
    await ui.click(`${toast} a:has-text("Allow once")`);
    // Gone with the question (the run's "finished" notification names the session too).
    await ui.waitForSelector(`.notifications-toasts .notification-toast:has-text("“${tab.label}” is waiting for you")`, "hidden", 5_000);

    await eventually("beta to finish", () => transcriptText(tab).includes("Beta is done.") || undefined, 30_000);
    await eventually("alpha to finish", async () => (await primary.supervisor.readyClient?.request("get_state", {}))?.isStreaming === false && transcriptText(primary).includes(alphaReply) ? true : undefined, 30_000);
    assert.ok(!transcriptText(primary).includes("Beta is done."), "the streams stay apart");
    assert.ok(!transcriptText(tab).includes("Alpha streams"), "the streams stay apart");
    assert.match(transcriptText(tab), /beta-ran/, "the allowed command ran in the tab's session");
    await eventually("a notification for each finished run", () =>
      new Set(api.attention.shown.slice(shownBefore).filter((n) => n.kind === "done").map((n) => n.sessionId)).size === 2 || undefined,
    );
    assert.notEqual(primary.sessionFile, tab.sessionFile, "each session has its own file");
  });

  it("takes a question's notification away when the question is answered elsewhere (its quick pick)", async () => {
    const { api } = host;
    const primary = api.sessions.primary;
    const shownBefore = api.attention.shown.length;
    for (let i = 0; i < 2; i++) host.llm.enqueue(route);
    await primary.chat.prompt("beta task: run a command, asked in the side bar");
    await eventually("the notification for the question", () => api.attention.shown.slice(shownBefore).find((n) => n.sessionId === primary.id && n.kind === "dialog"));
    const toast = `.notifications-toasts .notification-toast:has-text("“${primary.label}” is waiting for you")`;
    await ui.waitForSelector(toast);
    // Answered in the question's own quick pick, not in the notification.
    await eventually("the question's quick pick", async () => (await ui.quickPickItems()).includes("Allow once") || undefined);
    await ui.pickQuickPickItem("Allow once");
    await eventually("the run to finish", () => transcriptText(primary).includes("Beta is done.") || undefined, 30_000);
    await ui.waitForSelector(toast, "hidden", 5_000);
  });

  it("acts on the chat the user clicked into: the palette's commands say which, the status bar follows", async () => {
    const { api } = host;
    const primary = api.sessions.primary;
    const tab = second!;
    const modelOf = async (session: AgentSession) => (await session.supervisor.readyClient!.request("get_state", {})).model?.id;
    assert.equal(await modelOf(tab), "mock-a");
    assert.equal(await modelOf(primary), "mock-a");
    // The side bar shows Pi's chat (run alone, no earlier suite opened it). The tab's chat was the
    // last one worked in; then the user clicks into the side bar's chat. VS Code hands a focused
    // view's webview the focus a task later (~50 ms): landing after F1, it took the focus from the
    // palette and "Pi: Switch Model" was typed into the chat (ci-36). So the focus is first away
    // from the chat, then seen arrived in it, before the palette opens.
    await vscode.commands.executeCommand("workbench.action.focusPanel");
    await eventually("the chat without the focus", async () => !(await ui.webviewFocused("Chat")) || undefined);
    await vscode.commands.executeCommand("pi.focusChat");
    await eventually("VS Code to hand the chat the focus", async () => (await ui.webviewFocused("Chat")) || undefined);
    api.sessions.setActive(tab);
    await ui.clickInWebview("Chat", "vscode-textarea#prompt textarea");
    await eventually("the side bar's session to be the active one", () => api.sessions.active === primary);
    await ui.pressKey("F1");
    await ui.waitForSelector(".quick-input-widget .quick-input-box input");
    await ui.typeText("Pi: Switch Model");
    await ui.pressKey("Enter");
    await ui.waitForSelector('.quick-input-widget .quick-input-title:has-text("Pi: Switch Model")');
    const title = await ui.text(".quick-input-widget .quick-input-title");
    assert.equal(title, `Pi: Switch Model — ${primary.label} (side bar)`, "the command says which session it acts on");
    await ui.screenshot("sessions-switch-model-names-its-session");
    await ui.pickQuickPickItem("Mock mock-b");
    await eventually("the side bar's model to change", async () => (await modelOf(primary)) === "mock-b" || undefined);
    assert.equal(await modelOf(tab), "mock-a", "the tab's session keeps its model");
    await eventually("the status bar to show the side bar's session", () => /mock-b/.test(api.status.current?.text ?? "") || undefined);
    // Clicking into the tab's chat makes it the one the status bar and the commands follow.
    await vscode.commands.executeCommand("pi.sessions.show", tab.id);
    await ui.clickInWebview(`Pi: ${tab.label}`, "vscode-textarea#prompt textarea");
    await eventually("the tab's session to be the active one", () => api.sessions.active === tab);
    await eventually("the status bar to show the tab's session", () => /mock-a/.test(api.status.current?.text ?? "") || undefined);
    await primary.supervisor.readyClient!.request("set_model", { provider: "mock", modelId: "mock-a" });
  });

  // #31: an agent whose chat is off screen sends its stream less often (each update costs the
  // extension host a read, a parse and the transcript's work, for nothing shown).
  it("paces a chat's agent by whether the chat shows: 250 ms in a background tab, 25 ms once its tab is clicked", async () => {
    const tab = second!;
    const intervalOf = async (session: AgentSession) => (await session.supervisor.readyClient!.request("get_state", {})).deltaIntervalMs;
    const interval = () => intervalOf(tab);
    // The side bar's chat, whose view was made after its session (it heard no change of visibility before).
    await vscode.commands.executeCommand("pi.focusChat");
    await eventually("the side bar's chat on screen: 25 ms", async () => (await intervalOf(host.api.sessions.primary)) === 25 || undefined);
    await vscode.commands.executeCommand("pi.sessions.show", tab.id);
    await eventually("the tab on screen: 25 ms", async () => (await interval()) === 25 || undefined);
    const cover = await vscode.workspace.openTextDocument({ content: "a text editor over the chat" });
    await vscode.window.showTextDocument(cover, { viewColumn: vscode.ViewColumn.Active, preview: false });
    await eventually("the tab behind a text editor: 250 ms", async () => (await interval()) === 250 || undefined);
    await ui.click(`.tabs-container .tab:has-text("Pi: ${tab.label}")`);
    await eventually("the tab clicked: 25 ms", async () => (await interval()) === 25 || undefined);
    await vscode.window.showTextDocument(cover, { viewColumn: vscode.ViewColumn.Active });
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  // #32 trial: with an editor tab's chat the active one, the side bar's "New Session" button reset the tab's chat.
  it("runs the side bar's title buttons on the side bar's chat, whichever chat was active", async () => {
    const { api } = host;
    const primary = api.sessions.primary;
    const tab = second!;
    const fileOf = async (session: AgentSession) => (await session.supervisor.readyClient!.request("get_state", {})).sessionFile;
    const [primaryBefore, tabBefore] = [await fileOf(primary), await fileOf(tab)];
    await vscode.commands.executeCommand("pi.focusChat"); // the side bar shows Pi's chat, its title buttons
    api.sessions.setActive(tab);
    await ui.click('.part.sidebar .title-actions .action-label[aria-label^="New Session"]');
    await eventually("the side bar's chat to start a new session", async () => (await fileOf(primary)) !== primaryBefore || undefined);
    assert.equal(await fileOf(tab), tabBefore, "the tab's session is untouched");
    assert.equal(api.sessions.active, primary, "the side bar's chat is the one the user works with now");
    // Back to the conversation the next tests hand over (it has a file).
    await primary.supervisor.readyClient!.request("switch_session", { sessionPath: primaryBefore! });
  });

  it("keeps a busy agent running when its tab closes, and shows it again from the list", async () => {
    const { api } = host;
    const tab = second!;
    const pid = tab.supervisor.pid;
    for (let i = 0; i < 2; i++) host.llm.enqueue(route);
    await tab.chat.prompt("gamma task: take your time");
    await eventually("gamma to run", () => tab.activity === "running" || undefined);
    tab.reveal();
    await eventually("the tab in view", () => tab.surface.visible || undefined);
    const activityAtClose = tab.activity;
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await eventually("the tab to close", () => !tab.surface.visible || undefined);
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(api.sessions.all.includes(tab), `still listed (activity at close ${activityAtClose}, now ${tab.activity}) ${logTail(api.logFolder.fsPath)}`);
    assert.equal(tab.activity, "running");
    assert.ok(alive(pid), "its agent process lives on");
    const background = `.notifications-toasts .notification-toast:has-text("keeps running in the background")`;
    await ui.waitForSelector(background);
    await vscode.commands.executeCommand("pi.sessions.show", tab.id);
    await eventually("the tab to come back", () => tab.surface.visible || undefined);
    await ui.waitForSelector(background, "hidden", 3_000); // no longer in the background: the notification goes
    await vscode.commands.executeCommand("pi.sessions.abort", tab.id);
    await eventually("gamma to stop", () => tab.activity !== "running" || undefined);
    await vscode.commands.executeCommand("pi.sessions.stop", tab.id);
    await eventually("its agent to stop", () => tab.supervisor.status === "stopped" || undefined);
    // Its process ends with it, unless it is shared with another session's agent (pi.agent.shareProcess).
    const shared = () => api.sessions.all.some((other) => other !== tab && other.supervisor.pid === pid);
    await eventually("the process to end", () => shared() || !alive(pid) || undefined);
    assert.ok(!api.sessions.all.includes(tab), "stopped sessions leave the list");
    second = undefined;
  });

  it("hands a session over to Pi's terminal UI with --session FILE", async () => {
    const file = host.api.sessions.primary.sessionFile;
    assert.ok(file && fs.existsSync(file), "the side panel's session has a file");
    await config().update("terminal.command", "/bin/true", vscode.ConfigurationTarget.Global);
    const opened = nextTerminal();
    await vscode.commands.executeCommand("pi.openInTerminal");
    const terminal = await opened;
    const options = terminal.creationOptions as vscode.TerminalOptions;
    assert.equal(options.shellPath, "/bin/true");
    assert.deepEqual(options.shellArgs, ["--session", file]);
    assert.match(terminal.name, /^Pi: /);
    terminal.dispose();
  });

  it("reports an extension's terminal-only view in the chat and offers the terminal", async () => {
    const { api } = host;
    const primary = api.sessions.primary;
    const fixture = path.join(vscode.extensions.getExtension("pi-agent.pi-agent-vscode")!.extensionPath, "test/fixtures/extensions/ui-dialogs.ts");
    await config().update("agent.args", ["-e", fixture], vscode.ConfigurationTarget.Global);
    await eventually("the agent to restart with the extension", async () => {
      const client = primary.supervisor.readyClient;
      const commands = client ? (await client.request("get_commands", {})).commands : [];
      return commands.some((c) => c.name === "terminal-view") || undefined;
    }, 30_000);
    await config().update("terminal.command", "/bin/true", vscode.ConfigurationTarget.Global);
    const opened = nextTerminal();
    await primary.chat.prompt("/terminal-view");
    await eventually("a notice in the chat", () => transcriptText(primary).includes("only Pi's terminal UI can display") || undefined);
    const toast = '.notifications-toasts .notification-toast:has-text("ctx.ui.custom")';
    await ui.waitForSelector(toast);
    await ui.click(`${toast} .monaco-button:has-text("Open in Pi Terminal UI")`);
    const terminal = await opened;
    assert.deepEqual((terminal.creationOptions as vscode.TerminalOptions).shellArgs, ["--session", primary.sessionFile]);
    terminal.dispose();
    await config().update("agent.args", undefined, vscode.ConfigurationTarget.Global);
  });

  it("runs a session in a git worktree of its own", async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const git = (...args: string[]) => execFileSync("git", args, { cwd: folder, encoding: "utf8" });
    // The workspace is a throw-away copy: make it a repository of its own. A `.git` may be there
    // and not be one (the empty mount point a sandboxed agent's bwrap keeps while it runs).
    const isRepository = () => {
      try {
        return git("rev-parse", "--show-toplevel").trim() === fs.realpathSync(folder);
      } catch {
        return false;
      }
    };
    if (!isRepository()) {
      git("init", "-q");
      git("add", "-A");
      git("-c", "user.email=test@example.com", "-c", "user.name=test", "commit", "-qm", "workspace");
    }
    const branchBefore = git("rev-parse", "--abbrev-ref", "HEAD").trim();
    const id = await vscode.commands.executeCommand<string>("pi.newSessionInWorktree");
    const session = host.api.sessions.get(id);
    assert.ok(session?.worktree, "a session with a worktree");
    second = session;
    assert.ok(fs.existsSync(path.join(session.worktree.path, ".git")), "the worktree exists");
    assert.ok(!session.worktree.path.startsWith(folder), "outside the workspace");
    assert.equal(execFileSync("git", ["branch", "--show-current"], { cwd: session.worktree.path, encoding: "utf8" }).trim(), session.worktree.branch);
    assert.equal(git("rev-parse", "--abbrev-ref", "HEAD").trim(), branchBefore, "the user's checkout stays on its branch");
    await eventually("the worktree session's agent", () => session.supervisor.status === "idle", 30_000);
    const state = await session.supervisor.readyClient!.request("get_state", {});
    const encoded = path.basename(session.worktree.path);
    assert.ok(state.sessionFile?.includes(encoded), `the agent works in the worktree (${state.sessionFile})`);
  });
});

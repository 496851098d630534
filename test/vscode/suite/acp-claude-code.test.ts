// A third ACP agent from the chat, the one that runs its commands in the editor: the real
// claude-code-acp (npm, deprecated upstream) on the scripted Anthropic server running here. Its
// command is asked about in the native quick pick, then runs in our terminal: the output shows in
// the chat's card and in a VS Code terminal; Abort kills a command still running.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { acpAgentLaunch, type AcpAgentLaunch } from "../../support/acp-agents";
import { startMockAnthropic, toolResults, type AnthropicRequest, type AnthropicTurn, type MockAnthropic } from "../../support/mock-anthropic";
import { eventually } from "./agent-fixture";
import { original, rewritten, startAcpAgent, stopAcpAgent, undoSecondHunkInReview } from "./acp-support";
import { chatText, chatView, settled } from "./chat-support";
import { requireUi, ui } from "./ui";

/** What a VS Code terminal shows, read by selecting all of it and copying. */
async function terminalText(terminal: vscode.Terminal): Promise<string> {
  terminal.show();
  await vscode.commands.executeCommand("workbench.action.terminal.selectAll");
  await vscode.commands.executeCommand("workbench.action.terminal.copySelection");
  return vscode.env.clipboard.readText();
}

describe("ACP: claude-code-acp driven from the chat (its commands in our terminals)", function () {
  this.timeout(180_000);
  let api: PiExtensionApi;
  let anthropic: MockAnthropic;
  let launch: AcpAgentLaunch;
  let dir: string;
  let decide: (request: AnthropicRequest) => AnthropicTurn = () => ({ text: ["OK"] });

  before(async function () {
    requireUi(this);
    anthropic = await startMockAnthropic((request) => decide(request));
    launch = acpAgentLaunch("claude-code", anthropic.baseUrl);
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "acp-claude-test");
    const env: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(launch.env)) if (name === "HOME" || name === "IS_SANDBOX" || /^(ANTHROPIC_|DISABLE_|CLAUDE_CODE_)/.test(name)) env[name] = value;
    // `node …/dist/index.js` is no name we know: the protocol is set.
    api = await startAcpAgent({ command: launch.command, args: launch.args, env, protocol: "acp" }, dir, () => fs.writeFileSync(path.join(dir, "a.txt"), original));
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-acp-claude-${this.currentTest.title.slice(0, 30)}`);
  });

  after(async () => {
    await stopAcpAgent(api, dir);
    await anthropic?.close();
    await launch?.cleanup();
  });

  it("streams claude-code-acp's answer into the chat", async () => {
    assert.match(api.supervisor.agent.label ?? "", /ACP/);
    decide = () => ({ text: ["Claude ", "over ", "ACP"] });
    await vscode.commands.executeCommand("pi.sendPrompt", "hello claude");
    await eventually("the answer in the chat", async () => (await ui.webviewText(chatView, '.item-assistant:not([data-streaming="true"]) .text')).includes("Claude over ACP") || undefined, 60_000);
    await settled({ api });
    // The chat says what this agent gets here, by its own name (not pi's note).
    const note = await chatText("the safeguards note", ".item-notice[data-key='safeguards']", (t) => t.includes("Claude Code is an ACP agent"));
    assert.match(note, /no session tree, fork, compaction or Pi extension UI/);
  });

  it("asks before the command in a quick pick; it runs in our terminal, its output in the card and in a VS Code terminal", async () => {
    decide = (request) =>
      toolResults(request).length > 0 ? { text: ["Ran it."] } : { toolUses: [{ name: "mcp__acp__Bash", input: { command: "echo editor-out-$((6*7))", timeout: 30_000, description: "Print the answer" } }] };
    await vscode.commands.executeCommand("pi.sendPrompt", "run the command");
    const rows = await eventually("claude's question as a quick pick", async () => {
      const items = await ui.quickPickItems().catch(() => [] as string[]);
      return items.includes("Allow") ? items : undefined;
    }, 60_000);
    assert.deepEqual(rows.slice(-3), ["Always Allow", "Allow", "Reject"]);
    await ui.screenshot("acp-claude-question");
    await ui.pickQuickPickItem("Allow");
    await settled({ api });
    // The card's output is the terminal's (the command line ran in a shell: $((6*7)) is 42).
    await chatText("the command's output in its card", ".item-tool[data-tool='bash'] .tool-output", (t) => t.includes("editor-out-42"), 30_000);
    // Its header is the command (claude-code-acp first announces the call as "Terminal").
    await chatText("the command in the card", ".item-tool[data-tool='bash']", (t) => t.includes("echo editor-out-$((6*7))"));
    await ui.screenshot("acp-claude-terminal-card");
    const terminal = await eventually("the command's VS Code terminal", () => vscode.window.terminals.find((t) => t.name.startsWith("Claude Code: echo editor-out")));
    const shown = await eventually("the output in the terminal", async () => {
      const text = await terminalText(terminal);
      return text.includes("editor-out-42") ? text : undefined;
    });
    assert.match(shown, /\$ echo editor-out-\$\(\(6\*7\)\)/, "the command as the header");
    assert.match(shown, /\[exit 0\]/);
    await ui.screenshot("acp-claude-terminal");
  });

  it("asks before its write in a quick pick; the write (fs/write_text_file) is reviewed and one hunk undone", async () => {
    const file = path.join(dir, "a.txt");
    const after = rewritten;
    decide = (request) => (toolResults(request).length > 0 ? { text: ["Written."] } : { toolUses: [{ name: "mcp__acp__Write", input: { file_path: file, content: after } }] });
    await vscode.commands.executeCommand("pi.sendPrompt", "rewrite acp-claude-test/a.txt");
    await eventually("claude's question", async () => ((await ui.quickPickItems().catch(() => [] as string[])).includes("Allow") ? true : undefined), 60_000);
    await ui.screenshot("acp-claude-write-question");
    await ui.pickQuickPickItem("Allow");
    await eventually("the file written", () => fs.readFileSync(file, "utf8") === after || undefined, 30_000);
    await settled({ api });

    // In the Changes view with its before (recorded before the write): Undo is offered per hunk.
    await undoSecondHunkInReview(api, file, "acp-claude-review");
    await vscode.commands.executeCommand("pi.review.keepAll");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("Abort kills the command still running in our terminal", async () => {
    const marker = path.join(dir, "late.txt");
    decide = (request) =>
      toolResults(request).length > 0 ? { text: ["after"] } : { toolUses: [{ name: "mcp__acp__Bash", input: { command: `sleep 60; echo late > ${marker}`, timeout: 120_000, description: "Wait" } }] };
    const before = vscode.window.terminals.length;
    await vscode.commands.executeCommand("pi.sendPrompt", "wait for it");
    await eventually("claude's question", async () => ((await ui.quickPickItems().catch(() => [] as string[])).includes("Allow") ? true : undefined), 60_000);
    await ui.pickQuickPickItem("Allow");
    const terminal = await eventually("the command's terminal", () => (vscode.window.terminals.length > before ? vscode.window.terminals.find((t) => t.name.includes("sleep 60")) : undefined), 30_000);
    assert.equal(api.supervisor.status, "running");
    await vscode.commands.executeCommand("pi.abort");
    await eventually("the run to end", () => api.supervisor.status === "idle" || undefined, 15_000);
    await eventually("the terminal to say the command was killed", async () => (await terminalText(terminal)).includes("[exit killed]") || undefined);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(fs.existsSync(marker), false, "the rest of the command line never ran");
  });

  it("Resume Session lists claude's own sessions and reopens one: its history in the chat", async () => {
    const first = (await api.supervisor.client!.request("get_state", {})).sessionId;
    await vscode.commands.executeCommand("pi.newSession");
    await eventually("a new session", async () => ((await api.supervisor.client!.request("get_state", {})).sessionId !== first ? true : undefined));
    await chatText("the emptied chat", ".transcript", (t) => !t.includes("hello claude"));
    const resuming = vscode.commands.executeCommand("pi.resumeSession");
    const rows = await eventually("claude's sessions as a quick pick", async () => {
      const items = await ui.quickPickItems().catch(() => [] as string[]);
      return items.some((i) => i.includes("hello claude")) ? items : undefined;
    }, 30_000);
    await ui.screenshot("acp-claude-resume");
    await ui.pickQuickPickItem(rows.find((i) => i.includes("hello claude"))!);
    await resuming;
    await eventually("the first session again", async () => ((await api.supervisor.client!.request("get_state", {})).sessionId === first ? true : undefined));
    // As claude replays it: the prompts, its answers, its command's card (with its own record of the result).
    await chatText("its history in the chat", ".transcript", (t) => ["hello claude", "Claude over ACP", "run the command", "echo editor-out-$((6*7))", "Ran it."].every((part) => t.includes(part)), 30_000);
    await ui.screenshot("acp-claude-resumed");
  });
});

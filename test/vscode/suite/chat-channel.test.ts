// The typed channel between the extension and the chat webview (vscode-jsonrpc over postMessage):
// malformed messages from the webview are logged and dropped while the chat works on; the
// webview's requests get their answers; the header's sessions menu runs its command for the
// session whose chat it is in (side panel or editor tab), by mouse and by keyboard.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentSession } from "../../../extension/sessions/agent-session";
import { eventually } from "./agent-fixture";
import { chatText, chatView, lastRequest, openChat, promptBox, requestText, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

/** Everything the extension logged so far (its log files). */
function extensionLog(folder: string): string {
  if (!fs.existsSync(folder)) return "";
  const files = fs.readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".log"));
  return files.map((f) => fs.readFileSync(path.join(folder, f), "utf8")).join("\n");
}

describe("Pi chat channel (vscode-jsonrpc over postMessage)", function () {
  this.timeout(120_000);
  const agent = useChatSuite();
  const root = vscode.workspace.workspaceFolders![0].uri;
  const sample = vscode.Uri.joinPath(root, "src", "channel-sample.txt");
  let tab: AgentSession | undefined;

  before(async () => {
    await vscode.workspace.fs.writeFile(sample, Buffer.from("sample\n"));
  });
  after(async () => {
    if (tab) await agent().api.sessions.close(tab);
    await vscode.workspace.fs.delete(sample).then(undefined, () => undefined);
  });

  it("drops malformed messages from the webview with a log line, and the chat keeps working", async () => {
    const { api, llm } = agent();
    const logFolder = api.logFolder.fsPath;
    const requestsBefore = llm.requests.length;
    const junk: unknown[] = [
      { type: "prompt", text: "PWNED as a plain message" },
      "PWNED as a string",
      { jsonrpc: "2.0", method: "prompt", params: { type: "prompt", text: "" } },
      { jsonrpc: "2.0", method: "prompt", params: { type: "prompt", text: 42 } },
      { jsonrpc: "2.0", method: "deleteEverything", params: {} },
      { jsonrpc: "2.0", id: 9001, method: "mentions", params: { query: { $gt: "" } } },
    ];
    for (const data of junk) await ui.postFromWebview(chatView, data);
    await eventually("a log line for each", () => {
      const log = extensionLog(logFolder);
      const lines = [
        /chat view: dropped a malformed message: not a JSON-RPC message: \{"type":"prompt","text":"PWNED as a plain message"\}/,
        /chat view: dropped a malformed message: not a JSON-RPC message: "PWNED as a string"/,
        /chat view: dropped a malformed prompt message: .*text/,
        /chat view: dropped a message of unknown type "deleteEverything"/,
        /chat view: dropped a malformed mentions request/,
      ];
      return lines.every((line) => line.test(log)) || undefined;
    }, 20_000);
    assert.equal(extensionLog(logFolder).match(/dropped a malformed prompt message/g)?.length, 2);

    // The chat goes on: a message typed in the box reaches the model and its reply shows.
    llm.enqueue({ text: "Still listening." });
    await typePrompt("are you still there?");
    await chatText("the reply", ".item-assistant .text", (t) => t.includes("Still listening."));
    await settled(agent());
    assert.equal(llm.requests.length, requestsBefore + 1, "only the real message reached the model");
    assert.ok(!requestText(lastRequest(llm)).includes("PWNED"));
    assert.deepEqual(api.chat.cspViolations, []);
  });

  it("answers the webview's requests over the channel: @ completion and the model list", async () => {
    const logFolder = agent().api.logFolder.fsPath;
    const logged = extensionLog(logFolder).length;
    await ui.typeInWebview(chatView, promptBox, "Look at @channel-sam");
    await chatText("the file in the @ completion", '.completion[data-mention="src/channel-sample.txt"]');
    await ui.pressKey("Escape");
    await ui.clickInWebview(chatView, "#model-picker");
    const models = await chatText("the model list", '.picker[data-picker="model-picker"]', (t) => t.includes("mock"));
    assert.match(models, /mock/);
    await ui.pressKey("Escape");
    assert.ok(!/dropped a/.test(extensionLog(logFolder).slice(logged)), "nothing dropped");
  });

  it("runs New Session from a chat's header for that chat's session: an editor tab's, then the side panel's", async () => {
    const { api } = agent();
    const primary = api.sessions.primary;
    const id = await vscode.commands.executeCommand<string>("pi.newSessionInTab");
    tab = api.sessions.get(id);
    assert.ok(tab);
    const tabSession = tab;
    await eventually("the tab's agent to be ready", () => tabSession.supervisor.status === "idle", 30_000);
    const sessionId = (s: AgentSession) => s.supervisor.state?.sessionId;
    const tabBefore = sessionId(tabSession);
    const primaryBefore = sessionId(primary);
    assert.ok(tabBefore && primaryBefore && tabBefore !== primaryBefore);
    const tabChat = tabSession.label;

    // The side panel's session is the active one; the menu in the tab acts on the tab's.
    await openChat();
    api.sessions.focusPrimary();
    assert.equal(api.sessions.active, primary);
    await ui.clickInWebview(tabChat, "#sessions-menu");
    const menuText = await eventually("the tab's sessions menu", async () => {
      const text = await ui.webviewText(tabChat, '.picker[data-picker="sessions-menu"]').catch(() => "");
      return text.includes("New Session") ? text : undefined;
    });
    for (const label of ["New Session", "Resume Session…", "Fork from Message…", "Rewind to Message…", "New Session in Editor Tab", "Open in Pi Terminal UI"]) {
      assert.ok(menuText.includes(label), `${label} in ${menuText}`);
    }
    await ui.screenshot("chat-sessions-menu");
    await ui.clickInWebview(tabChat, '.picker-option[data-value="newSession"]');
    await eventually("a new session in the tab", () => (sessionId(tabSession) !== tabBefore ? true : undefined), 20_000);
    assert.equal(sessionId(primary), primaryBefore, "the side panel's session is untouched");
    assert.equal(api.sessions.active, tabSession);

    // Now the tab is active; the side panel's menu, by keyboard, acts on the side panel's session.
    const tabAfter = sessionId(tabSession);
    await openChat();
    assert.equal(api.sessions.active, tabSession);
    await ui.clickInWebview(chatView, "#sessions-menu");
    await chatText("the side panel's sessions menu", '.picker[data-picker="sessions-menu"]', (t) => t.includes("New Session"));
    await ui.pressKey("End");
    await ui.pressKey("Home");
    await ui.pressKey("Enter");
    await eventually("a new session in the side panel", () => (sessionId(primary) !== primaryBefore ? true : undefined), 20_000);
    assert.equal(sessionId(tabSession), tabAfter, "the tab's session is untouched");
    assert.equal(api.sessions.active, primary);
  });
});

// An ACP agent from the chat, as a user meets it: the real gemini-cli (`--acp`, npm) on a scripted
// Google server running here, started by the supervisor over ACP (pi.agent.protocol "auto" knows
// `node …/gemini.js --acp`). A streamed answer in the chat; a write that gemini asks about, answered
// in the native quick pick with gemini's own options; the write served by the editor, listed in the
// Changes view with a before (the checkpoint), and one of its two hunks undone from its lens;
// gemini's own modes in our mode picker; Abort while gemini waits for the model.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { acpAgentLaunch, type AcpAgentLaunch } from "../../support/acp-agents";
import { functionResponses, lastUserText, startMockGoogle, type GoogleRequest, type GoogleTurn, type MockGoogle } from "../../support/mock-google";
import { eventually } from "./agent-fixture";
import { original, rewritten, startAcpAgent, stopAcpAgent, undoSecondHunkInReview } from "./acp-support";
import { chatText, chatView, settled } from "./chat-support";
import { requireUi, ui } from "./ui";

describe("ACP: gemini-cli driven from the chat", function () {
  this.timeout(180_000);
  let api: PiExtensionApi;
  let google: MockGoogle;
  let launch: AcpAgentLaunch;
  let decide: (request: GoogleRequest) => GoogleTurn = () => ({ text: ["OK"] });
  let dir: string;

  before(async function () {
    requireUi(this);
    google = await startMockGoogle((request) => decide(request));
    launch = acpAgentLaunch("gemini", google.baseUrl);
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "acp-test");
    const { HOME, GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL, GEMINI_CLI_NO_RELAUNCH } = launch.env;
    // `node …/gemini.js --acp`: pi.agent.protocol stays auto, which knows it.
    api = await startAcpAgent({ command: process.execPath, args: launch.args, env: { HOME, GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL, GEMINI_CLI_NO_RELAUNCH } }, dir, () => fs.writeFileSync(path.join(dir, "a.txt"), original));
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-acp-${this.currentTest.title.slice(0, 30)}`);
  });

  after(async () => {
    await stopAcpAgent(api, dir);
    await google?.close();
    await launch?.cleanup();
  });

  it("says which agent and protocol the session runs, and streams gemini's answer into the chat", async () => {
    assert.match(api.supervisor.agent.label ?? "", /ACP: Gemini CLI/);
    decide = () => ({ text: ["Gem", "ini ", "over ", "ACP"] });
    await vscode.commands.executeCommand("pi.sendPrompt", "hello over acp");
    const reply = await eventually("the answer in the chat", async () => {
      const shown = await ui.webviewText(chatView, '.item-assistant:not([data-streaming="true"]) .text');
      return shown.includes("Gemini over ACP") ? shown : undefined;
    }, 60_000);
    assert.match(reply, /Gemini over ACP/);
    await settled({ api });
  });

  it("asks before the write in a quick pick with gemini's options; the write is reviewed and one hunk undone", async () => {
    const file = path.join(dir, "a.txt");
    const after = rewritten;
    decide = (request) => {
      if (functionResponses(request).length > 0) return { text: ["Written."] };
      if (lastUserText(request).includes("rewrite")) return { functionCalls: [{ name: "write_file", args: { file_path: file, content: after } }] };
      return { text: ["?"] };
    };
    await vscode.commands.executeCommand("pi.sendPrompt", "rewrite acp-test/a.txt");
    // The quick pick's title names the call; its rows are the whole diff, then gemini's options
    // (the chat's card offers the same options as buttons).
    await ui.waitForSelector('.quick-input-widget .quick-input-title:has-text("Gemini CLI asks to run: Writing to")', "visible", 60_000);
    for (const option of ["Allow for this session", "Allow", "Reject"]) await chatText(`the option ${option}`, `.item-dialog[data-method="select"][data-state="open"] [data-option=${JSON.stringify(option)}]`);
    await ui.screenshot("acp-gemini-question");
    await ui.pickQuickPickItem("Allow");
    await eventually("the file written", () => fs.readFileSync(file, "utf8") === after || undefined, 30_000);
    await settled({ api });

    // In the Changes view with its before (recorded before the write): Undo is offered per hunk.
    await undoSecondHunkInReview(api, file, "acp-gemini-review");
  });

  it("the mode picker lists gemini's own modes and sets one (session/set_mode)", async () => {
    assert.equal(api.supervisor.acp?.modes?.current, "default");
    const picking = vscode.commands.executeCommand("pi.setPermissionMode");
    await ui.waitForSelector('.quick-input-widget .quick-input-title:has-text("Mode")', "visible");
    assert.deepEqual(await ui.quickPickItems(), ["Default", "Auto Edit", "YOLO", "Plan"]);
    await ui.pickQuickPickItem("Auto Edit");
    await picking;
    await eventually("gemini in Auto Edit", () => api.supervisor.acp?.modes?.current === "autoEdit" || undefined);
    await ui.waitForSelector('.statusbar-item:has-text("Auto Edit")', "visible");
    await api.supervisor.acp!.modes!.set("default");
  });

  it("Abort while gemini waits for the model ends the run", async () => {
    decide = () => ({ hang: true });
    const streams = () => google.requests.filter((r) => r.method === "streamGenerateContent").length;
    const count = streams();
    await vscode.commands.executeCommand("pi.sendPrompt", "think for a long time");
    await eventually("gemini to ask the model", () => streams() > count || undefined, 30_000);
    assert.equal(api.supervisor.status, "running");
    await vscode.commands.executeCommand("pi.abort");
    await eventually("the run to end", () => api.supervisor.status === "idle" || undefined, 30_000);
    await eventually("the model request dropped", () => google.requests.filter((r) => r.method === "streamGenerateContent").at(-1)?.aborted || undefined, 10_000);
  });
});

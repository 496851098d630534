// A second ACP agent from the chat: the real opencode (`opencode acp`, npm) on the scripted OpenAI
// chat server running here. A streamed answer; its question before a write answered in the native
// quick pick; the write served by the editor and in the Changes view with its before, undone from
// there; Abort.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { acpAgentLaunch, type AcpAgentLaunch } from "../../support/acp-agents";
import { messageText, startMockLlm, toolResultMessages, type MockLlm, type MockTurn, type RecordedRequest } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { startAcpAgent, stopAcpAgent } from "./acp-support";
import { chatView, settled } from "./chat-support";
import { requireUi, ui } from "./ui";

describe("ACP: opencode driven from the chat", function () {
  this.timeout(180_000);
  let api: PiExtensionApi;
  let llm: MockLlm;
  let launch: AcpAgentLaunch;
  let dir: string;
  let main: (request: RecordedRequest) => MockTurn = () => ({ text: "OK" });
  const isMain = (request: RecordedRequest) => !messageText(request.body.messages[0] ?? { role: "system" }).includes("title generator");

  before(async function () {
    requireUi(this);
    llm = await startMockLlm();
    // Answered by what each request is (opencode also asks for a title), never by order.
    llm.enqueue(...Array.from({ length: 60 }, () => (request: RecordedRequest): MockTurn => (isMain(request) ? main(request) : { text: "A title" })));
    launch = acpAgentLaunch("opencode", llm.baseUrl);
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "acp-opencode-test");
    const env: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(launch.env)) if (name === "HOME" || name.startsWith("XDG_") || name.startsWith("OPENCODE_")) env[name] = value;
    api = await startAcpAgent({ command: launch.command, args: launch.args, env }, dir, () => fs.writeFileSync(path.join(dir, "b.txt"), "beta 1\nbeta 2\n"));
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-acp-opencode-${this.currentTest.title.slice(0, 30)}`);
  });

  after(async () => {
    await stopAcpAgent(api, dir);
    await llm?.close();
    await launch?.cleanup();
  });

  it("is named in the header and streams opencode's answer into the chat", async () => {
    assert.match(api.supervisor.agent.label ?? "", /ACP: OpenCode/);
    main = () => ({ text: ["Open", "code ", "over ", "ACP"] });
    await vscode.commands.executeCommand("pi.sendPrompt", "hello opencode");
    await eventually("the answer in the chat", async () => (await ui.webviewText(chatView, '.item-assistant:not([data-streaming="true"]) .text')).includes("Opencode over ACP") || undefined, 60_000);
    await settled({ api });
  });

  it("asks before the write in a quick pick; the write lands in the Changes view and is undone from there", async () => {
    const file = path.join(dir, "b.txt");
    main = (request) => (toolResultMessages(request).length > 0 ? { text: "Written." } : { toolCalls: [{ name: "write", arguments: { filePath: file, content: "beta 1\nBETA TWO\n" } }] });
    await vscode.commands.executeCommand("pi.sendPrompt", "change b.txt");
    // A long question is the quick pick's rows (its title says so), opencode's options last.
    const rows = await eventually("opencode's question as a quick pick", async () => {
      const items = await ui.quickPickItems().catch(() => [] as string[]);
      return items.includes("Allow once") ? items : undefined;
    }, 60_000);
    assert.ok(rows.some((r) => /OpenCode\s+asks\s+to\s+run/.test(r)), rows.join(" | "));
    assert.deepEqual(rows.slice(-3), ["Allow once", "Always allow", "Reject"]);
    await ui.pickQuickPickItem("Allow once");
    await eventually("the file written", () => fs.readFileSync(file, "utf8") === "beta 1\nBETA TWO\n" || undefined, 30_000);
    await settled({ api });
    await eventually("b.txt to review", () => api.review.files().some((f) => f.path === file) || undefined, 20_000);
    await vscode.commands.executeCommand("pi.review.undoAll");
    await eventually("b.txt restored from its before", () => fs.readFileSync(file, "utf8") === "beta 1\nbeta 2\n" || undefined);
  });

  it("Switch Model lists opencode's models (its model config option) and sets one: the next request uses it", async () => {
    const picking = vscode.commands.executeCommand("pi.switchModel");
    const items = await eventually("opencode's models in the quick pick", async () => {
      const rows = await ui.quickPickItems().catch(() => [] as string[]);
      return rows.some((r) => r.includes("Mock Large")) ? rows : undefined;
    }, 20_000);
    assert.ok(items.some((r) => r.includes("Mock/Mock")), items.join(" | "));
    await ui.pickQuickPickItem(items.find((r) => r.includes("Mock Large"))!);
    await picking;
    await eventually("the model set", async () => ((await api.supervisor.client!.request("get_state", {})).model?.id === "mock/mock-large" ? true : undefined));
    main = () => ({ text: "large" });
    await vscode.commands.executeCommand("pi.sendPrompt", "which model");
    await settled({ api });
    await eventually("the request to the large model", () => (llm.requests.filter(isMain).at(-1)?.body.model === "mock-large" ? true : undefined), 30_000);
  });

  it("the mode picker lists opencode's modes (its config option of category mode) and sets one", async () => {
    assert.equal(api.supervisor.acp?.modes?.current, "build");
    const picking = vscode.commands.executeCommand("pi.setPermissionMode");
    await ui.waitForSelector('.quick-input-widget .quick-input-title:has-text("Mode")', "visible");
    assert.deepEqual((await ui.quickPickItems()).map((i) => i.split(/\s/)[0]).sort(), ["build", "plan"]);
    await ui.pickQuickPickItem((await ui.quickPickItems()).find((i) => i.startsWith("plan"))!);
    await picking;
    await eventually("opencode in plan", () => api.supervisor.acp?.modes?.current === "plan" || undefined);
    await ui.waitForSelector('.statusbar-item:has-text("plan")', "visible");
    await api.supervisor.acp!.modes!.set("build");
  });

  it("Abort while opencode waits for the model ends the run", async () => {
    main = () => ({ kind: "hang" });
    const count = llm.requests.filter(isMain).length;
    await vscode.commands.executeCommand("pi.sendPrompt", "take your time");
    await eventually("opencode to ask the model", () => llm.requests.filter(isMain).length > count || undefined, 30_000);
    await vscode.commands.executeCommand("pi.abort");
    await eventually("the run to end", () => api.supervisor.status === "idle" || undefined, 30_000);
    await eventually("the model request dropped", () => llm.requests.filter(isMain).at(-1)?.aborted || undefined, 10_000);
  });
});

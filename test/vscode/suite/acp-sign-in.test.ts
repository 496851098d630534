// An ACP agent that asks to sign in, met in the real editor (issue #36): its methods in the real
// quick pick, picked with a click; the path chosen runs; the chat then streams the agent's answer.
// - The real gemini-cli (npm), started with no key: its `gateway` method through the editor's
//   model gateway (the key stored with SecretStorage, upstream the scripted Google server). Stop
//   while its pick is open closes the pick and fails the start (the pick stayed open before).
// - An SDK agent script (test/fixtures/acp/terminal-sign-in-agent.mjs: no real agent offers the
//   spec's terminal method offline): its terminal method confirmed in a second quick pick and run
//   in a VS Code terminal with the user's pi.agent.env and the method's variables, never the stored
//   key or the gateway's token. Restart while its pick is open closes it and asks again (Restart
//   waited for the user before).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { acpAgentLaunch, type AcpAgentLaunch } from "../../support/acp-agents";
import { startMockGoogle, type MockGoogle } from "../../support/mock-google";
import { eventually } from "./agent-fixture";
import { configureAcpAgent, stopAcpAgent } from "./acp-support";
import { openChat, chatView, settled } from "./chat-support";
import { requireUi, ui } from "./ui";

const KEY = `AIza-editor-${Math.random().toString(36).slice(2)}-stored-key`;
const pickTitle = (text: string) => `.quick-input-widget .quick-input-title:has-text(${JSON.stringify(text)})`;

async function answerInChat(text: string): Promise<string> {
  return eventually(`"${text}" in the chat`, async () => {
    const shown = await ui.webviewText(chatView, '.item-assistant:not([data-streaming="true"]) .text');
    return shown.includes(text) ? shown : undefined;
  }, 60_000);
}

describe("ACP sign-in in the editor: the agent's methods in the quick pick", function () {
  this.timeout(240_000);
  let api: PiExtensionApi | undefined;
  let dir: string | undefined;

  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-acp-sign-in-${this.currentTest.title.slice(0, 30)}`);
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
    await stopAcpAgent(api, dir);
    await api?.apiKeys.delete("GEMINI_API_KEY");
  });

  describe("gemini-cli with no key: its gateway method through the editor's model gateway", () => {
    let google: MockGoogle;
    let launch: AcpAgentLaunch;

    before(async function () {
      requireUi(this);
      google = await startMockGoogle(() => ({ text: ["Signed ", "in through ", "the gateway."] }));
      launch = acpAgentLaunch("gemini", "http://127.0.0.1:9/unused", true);
      // The gateway routes Google to the scripted server: pi's models.json (in the agent's folder) names it.
      const piDir = path.join(launch.home, ".pi", "agent");
      fs.mkdirSync(piDir, { recursive: true });
      fs.writeFileSync(path.join(piDir, "models.json"), JSON.stringify({ providers: { google: { baseUrl: google.baseUrl, apiKey: "$GEMINI_API_KEY" } } }));
      dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "acp-sign-in-test");
      const { HOME, GOOGLE_GEMINI_BASE_URL, GEMINI_CLI_NO_RELAUNCH } = launch.env;
      api = await configureAcpAgent({ command: process.execPath, args: launch.args, env: { HOME, GOOGLE_GEMINI_BASE_URL, GEMINI_CLI_NO_RELAUNCH, PI_CODING_AGENT_DIR: piDir } }, dir);
      await api.apiKeys.set("GEMINI_API_KEY", KEY);
      await api.apiKeys.approveOrigin("GEMINI_API_KEY", new URL(google.baseUrl).origin);
    });

    after(async () => {
      await api?.supervisor.stop();
      await google?.close();
      await launch?.cleanup();
    });

    it("Stop while the sign-in pick is open: the pick closes and the start fails, saying so", async () => {
      const starting = api!.supervisor.ensureStarted();
      await ui.waitForSelector(pickTitle("Gemini CLI asks you to sign in"), "visible", 90_000);
      const rows = await ui.quickPickItems();
      for (const method of ["Log in with Google", "AI API Gateway"]) assert.ok(rows.includes(method), `${method} offered: ${rows.join(" | ")}`);
      assert.ok(!rows.includes("Gemini API key"), "the method that hands gemini the key is not offered beside the gateway");
      await ui.screenshot("acp-sign-in-gemini-pick");
      await api!.supervisor.stop();
      await assert.rejects(starting, /Sign-in for Gemini CLI was cancelled/);
      await ui.waitForSelector(pickTitle("Gemini CLI asks you to sign in"), "hidden", 10_000);
      assert.equal(api!.supervisor.status, "stopped");
    });

    it("the gateway method picked with a click: gemini signs in through the gateway, the chat streams its answer, the stored key on every model request", async () => {
      const starting = api!.supervisor.ensureStarted();
      await ui.waitForSelector(pickTitle("Gemini CLI asks you to sign in"), "visible", 90_000);
      await ui.pickQuickPickItem("AI API Gateway");
      await starting;
      await openChat();
      await vscode.commands.executeCommand("pi.sendPrompt", "hello after signing in");
      assert.match(await answerInChat("Signed in through the gateway."), /Signed in through the gateway\./);
      await settled({ api: api! });
      const generate = google.requests.filter((r) => r.path.includes("generateContent"));
      assert.ok(generate.length > 0, "the model requests reached the scripted server through the gateway");
      for (const request of generate) assert.equal(request.headers["x-goog-api-key"], KEY, "the gateway put the stored key on it");
      const pid = api!.supervisor.pid!;
      assert.ok(!fs.readFileSync(`/proc/${pid}/environ`).includes(KEY), "the key is not in gemini's environment");
    });

    it("the gateway sign-in is remembered: a restarted gemini is signed in again without asking (it records its choice and asks no more)", async () => {
      const first = api!.supervisor.pid;
      await api!.supervisor.restart();
      assert.notEqual(api!.supervisor.pid, first);
      const generate = () => google.requests.filter((r) => r.path.includes("generateContent"));
      const before = generate().length;
      await vscode.commands.executeCommand("pi.sendPrompt", "hello again");
      await settled({ api: api! });
      await eventually("gemini's model request through the gateway", () => generate().length > before || undefined, 30_000);
      for (const request of generate().slice(before)) assert.equal(request.headers["x-goog-api-key"], KEY, "the gateway put the stored key on it");
    });

    it("Pi: Sign Out of ACP Agent: gemini declares no logout, so nothing is sent; the notification says what stays; after its Restart Agent the editor no longer signs gemini in", async () => {
      const first = api!.supervisor.pid;
      const signingOut = vscode.commands.executeCommand("pi.signOutAcpAgent");
      const toast = (text: string) => `.notifications-toasts .notification-toast:has-text(${JSON.stringify(text)})`;
      await ui.waitForSelector(toast("Gemini CLI offers no sign-out over ACP"), "visible", 10_000);
      const text = await ui.text(toast("Gemini CLI offers no sign-out over ACP"));
      assert.match(text, /token of Pi's model gateway \(never your key\): Restart Agent ends it/);
      assert.match(text, /no longer signs it in through the gateway when it starts/);
      assert.match(text, /GEMINI_API_KEY stays in the editor's secret storage/);
      assert.match(text, /security\.auth\.selectedType/, "the choice gemini recorded in its own settings, named");
      await ui.screenshot("acp-sign-out-gemini");
      await ui.click(`${toast("Gemini CLI offers no sign-out over ACP")} .monaco-button:has-text("Restart Agent")`);
      await signingOut;
      await eventually("a new gemini process, ready", () => (api!.supervisor.pid !== first && api!.supervisor.status === "idle") || undefined, 60_000);
      // Nothing was given to the new process: Sign Out says so.
      const again = vscode.commands.executeCommand("pi.signOutAcpAgent");
      await ui.waitForSelector(toast("The editor did not sign Gemini CLI in this run"), "visible", 10_000);
      await vscode.commands.executeCommand("notifications.clearAll");
      await again;
    });
  });

  describe("an agent whose method is a terminal sign-in (an SDK agent script)", () => {
    let home: string;
    let script: string;

    before(async function () {
      requireUi(this);
      home = fs.mkdtempSync(path.join(os.tmpdir(), "acp-terminal-sign-in-"));
      script = path.join(vscode.extensions.getExtension("pi-agent.pi-agent-vscode")!.extensionPath, "test/fixtures/acp/terminal-sign-in-agent.mjs");
      dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, "acp-sign-in-test");
      api = await configureAcpAgent({ command: process.execPath, args: [script], env: { SIGN_IN_AGENT_DIR: home, PI_TEST_AGENT_ENV: "from pi.agent.env" }, protocol: "acp" }, dir);
      // A stored key runs the model gateway for this agent too: neither the key nor its token may reach the terminal.
      await api.apiKeys.set("GEMINI_API_KEY", KEY);
    });

    after(async () => {
      await api?.supervisor.stop();
      fs.rmSync(home, { recursive: true, force: true });
    });

    it("Restart while the pick is open closes it and asks again; the terminal method confirmed and run with pi.agent.env; the chat streams the answer", async () => {
      const title = "Terminal Sign-in Agent asks you to sign in";
      const starting = api!.supervisor.ensureStarted();
      await ui.waitForSelector(pickTitle(title), "visible", 60_000);
      const first = api!.supervisor.pid;
      const restarting = api!.supervisor.restart();
      await assert.rejects(starting, /Sign-in for Terminal Sign-in Agent was cancelled/);
      await eventually("a new agent process", () => (api!.supervisor.pid && api!.supervisor.pid !== first) || undefined, 30_000);
      await ui.waitForSelector(pickTitle(title), "visible", 60_000);

      await ui.pickQuickPickItem("Log in with a terminal");
      await ui.waitForSelector(pickTitle("Terminal Sign-in Agent asks you to sign in by running a command"), "visible");
      // Long text runs over rows of its own (72 characters each): read them as one. Read without
      // white space: a row's label is read trimmed, so a space where a row ends is not seen (where
      // the rows break depends on the length of this checkout's path).
      const rows = (await ui.quickPickItems()).map((row) => row.replace(/^\u00a0+/, "")).join("");
      const compact = rows.replace(/\s+/g, "");
      assert.ok(rows.startsWith("Run in a terminalCancel"), rows);
      assert.ok(compact.includes(`${script}--login${path.join(home, "signed-in.json")}`.replace(/\s+/g, "")), `the whole command line: ${rows}`);
      assert.match(compact, /LOGIN_MODE=1/, "the agent's variable with its value");
      assert.match(compact, /(PI_TEST_AGENT_ENV,SIGN_IN_AGENT_DIR|SIGN_IN_AGENT_DIR,PI_TEST_AGENT_ENV)/, "the user's variables by name");
      assert.doesNotMatch(rows, /from pi\.agent\.env/, "their values not shown");
      await ui.screenshot("acp-sign-in-terminal-confirm");
      await ui.pickQuickPickItem("Run in a terminal");
      await restarting;

      const dump = JSON.parse(fs.readFileSync(path.join(home, "signed-in.json"), "utf8")) as { env: Record<string, string> };
      assert.equal(dump.env.PI_TEST_AGENT_ENV, "from pi.agent.env", "the user's pi.agent.env");
      assert.equal(dump.env.LOGIN_MODE, "1", "the method's own variable");
      assert.ok(!Object.values(dump.env).some((value) => value.includes(KEY)), "no stored key");
      assert.equal(dump.env.PI_MODEL_GATEWAY, undefined, "nothing of the gateway");
      assert.equal(dump.env.GEMINI_API_KEY, undefined, "no gateway token in the key's variable");

      await openChat();
      await vscode.commands.executeCommand("pi.sendPrompt", "hello");
      assert.match(await answerInChat("Signed in by the terminal."), /Signed in by the terminal\./);
      await settled({ api: api! });
    });
  });
});

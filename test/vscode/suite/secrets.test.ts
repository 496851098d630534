// API keys given to the extension — through Pi: Set API Key (SecretStorage, typed into the
// password box), through the API key store, and through the editor's own environment — reach the
// scripted LLM in the Authorization header, and appear nowhere after a full session (prompt, tool
// call, reply, a failing request whose error echoes the key, an export): not in the session
// files, the log folder (the "Pi Agent" channel with the verbose protocol trace), the exported
// HTML, the chat's DOM or the webview's saved state.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { fakeSecret, filePlaces, scanForSecrets, type Place } from "../../reliability/leak-scan";
import { toolResultMessages, messageText } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView, openChat } from "./chat-support";
import { printFigures } from "./figures";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

const model = (id: string) => ({ id, name: id, reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
const draft = "a draft kept in the webview state";

describe("secrets: API keys leak nowhere", function () {
  this.timeout(120_000);
  let host: HostFixture;
  const typed = fakeSecret("gsk_typed_");
  const stored = fakeSecret("sk-stored-");
  const inherited = fakeSecret("csk-env-");

  before(async function () {
    requireUi(this);
    host = await useBundledHost();
    fs.writeFileSync(path.join(host.agentDir, "models.json"), JSON.stringify({
      providers: {
        keyed: { baseUrl: host.llm.baseUrl, api: "openai-completions", apiKey: "$MOCK_API_KEY", models: [model("keyed-model")] },
        groq: { baseUrl: host.llm.baseUrl },
        cerebras: { baseUrl: host.llm.baseUrl },
      },
    }));
    process.env.CEREBRAS_API_KEY = inherited; // the editor's environment, inherited by the agent
    // models.json sends these keys to the scripted LLM's address: approved as the user would (the question is the commands suite's).
    for (const variable of ["MOCK_API_KEY", "GROQ_API_KEY"]) await host.api.apiKeys.approveOrigin(variable, new URL(host.llm.baseUrl).origin);
    await host.api.apiKeys.set("MOCK_API_KEY", stored);
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    delete process.env.CEREBRAS_API_KEY;
    await host?.api.apiKeys.delete("MOCK_API_KEY");
    await host?.api.apiKeys.delete("GROQ_API_KEY");
    await host?.dispose();
  });

  it("uses three keys in a scripted session and writes none of them anywhere", async () => {
    const { api, llm } = host;
    // Pi: Set API Key, as a user does it; the command restarts the agent with the key.
    const command = vscode.commands.executeCommand("pi.setApiKey");
    await eventually("the provider pick", async () => (await ui.quickPickItems()).includes("Groq") || undefined);
    await ui.pickQuickPickItem("Groq");
    await ui.waitForSelector(".quick-input-widget input[type='password']", "visible");
    await ui.inputBoxType(typed);
    await command;
    assert.ok(api.apiKeys.variables.includes("GROQ_API_KEY"));
    await api.supervisor.restart();
    const client = await api.supervisor.ensureStarted();
    await client.request("set_auto_retry", { enabled: false });
    await openChat();

    const run = async (provider: string, modelId: string, text: string) => {
      await client.request("set_model", { provider, modelId });
      const count = llm.requests.length;
      await api.chat.prompt(text);
      await llm.waitForRequests(count + 1);
      await eventually("the run to settle", async () => api.supervisor.status === "idle" && !(await client.request("get_state", {})).isStreaming);
    };
    // prompt → read tool call → reply ($VAR key from SecretStorage)
    llm.enqueue({ text: "Reading.", toolCalls: [{ name: "read", arguments: { path: "README.md" } }] }, { text: "The readme is short." });
    await run("keyed", "keyed-model", "What does the readme say?");
    await chatText("the reply", ".transcript", (t) => t.includes("The readme is short."));
    // a failing request whose error echoes the Authorization header (the typed key)
    llm.enqueue((request) => ({ kind: "error", status: 401, message: `Incorrect API key provided: ${request.headers.authorization}` }));
    await run("groq", "llama-3.3-70b-versatile", "Try the other provider");
    await chatText("the provider error", ".transcript", (t) => t.includes("Incorrect API key provided"));
    // a reply with the key inherited from the editor's environment
    llm.enqueue({ text: "Third provider here." });
    await run("cerebras", "gpt-oss-120b", "And the third?");
    await chatText("the third reply", ".transcript", (t) => t.includes("Third provider here."));
    const exported = await vscode.commands.executeCommand<string | undefined>("pi.exportHtml");
    assert.ok(exported && fs.existsSync(exported), "the session was exported");

    assert.deepEqual(llm.requests.map((r) => r.headers.authorization), [`Bearer ${stored}`, `Bearer ${stored}`, `Bearer ${typed}`, `Bearer ${inherited}`], "each key reached the provider");

    // The webview's saved state: a draft is saved, the webview reloaded, and VS Code hands the
    // state back in the script it puts first in the new document.
    await ui.typeInWebview(chatView, "vscode-textarea#prompt textarea", draft);
    const dom = await ui.webviewText(chatView, "body");
    await new Promise((resolve) => setTimeout(resolve, 600)); // the webview saves the draft 200 ms after the last key
    await vscode.commands.executeCommand("workbench.action.webview.reloadWebviewAction");
    const state = await eventually("the restored state", async () => {
      const script = await ui.webviewText(chatView, "script#_vscodeApiScript");
      const encoded = /decodeURIComponent\("([^"]*)"\)/.exec(script)?.[1];
      const saved = encoded === undefined ? "" : decodeURIComponent(encoded);
      return saved.includes(draft) ? `${saved}\n${script}` : undefined;
    });
    await openChat();

    // The log files are written asynchronously: the last line logged must be in them first.
    await eventually("the log to be flushed", () => filePlaces(api.logFolder.fsPath).some((p) => p.text.includes("export_html")));
    const logs = path.dirname(path.dirname(api.logFolder.fsPath)); // the window's whole log folder
    const places: Place[] = [
      ...filePlaces(path.join(host.agentDir, "sessions"), "session files"),
      ...filePlaces(logs, "logs"),
      ...filePlaces(exported, "exported HTML"),
      { name: "chat DOM text", text: dom },
      { name: "webview state", text: state },
    ];
    assert.ok(places.some((p) => p.name.startsWith("session files/")), "a session file was written");
    assert.ok(places.some((p) => p.name.startsWith("logs/") && p.text.includes("Incorrect API key provided")), "the log has the protocol trace of the failure");
    const leaks = scanForSecrets(places, [typed, stored, inherited]);
    printFigures(`keys 3 (Set API Key, key store, editor env), requests authorised ${llm.requests.length}, places scanned ${places.length}, leaks ${leaks.length}`);
    assert.deepEqual(leaks, []);
  });

  it("keeps the SecretStorage keys from the agent's shell commands, the editor's own environment key stays", async () => {
    const client = await host.api.supervisor.ensureStarted();
    // What `!printenv` in the chat runs: a shell the agent starts.
    // Read whole from a file too: a long environment (CI's) is cut to its tail in the result.
    const file = path.join(os.tmpdir(), `pi-secrets-printenv-${process.pid}-${Date.now()}.txt`);
    const result = await client.request("bash", { command: `printenv | tee ${file}` });
    const output = `${fs.readFileSync(file, "utf8")}\n${result.output}`;
    fs.rmSync(file, { force: true });
    assert.match(output, /CEREBRAS_API_KEY=/, "the shell ran and shows the editor's own environment");
    const leaks = scanForSecrets([{ name: "printenv in the agent's shell", text: output }], [typed, stored]);
    printFigures(`SecretStorage keys 2, seen by the agent's shell ${leaks.length} (PI_SECRET_ENV ${output.includes("PI_SECRET_ENV") ? 1 : 0}), editor env key seen ${output.includes(inherited) ? 1 : 0}`);
    assert.deepEqual(leaks, []);
    assert.ok(!output.includes("PI_SECRET_ENV"));
    assert.ok(output.includes(inherited), "a key from the editor's own environment is the user's choice and stays");
  });

  // Hole 2 of #30: deleting the keys from the host's process.env left them in
  // /proc/<host pid>/environ, which any tool process can read by walking up its ancestors.
  it("a bash tool call walking up its ancestors' /proc environ and cmdline finds no SecretStorage key", async () => {
    const { api } = host;
    // Without the sandbox (which hides every ancestor: its own PID namespace), so that the walk
    // reaches the agent and the editor: the keys must not be there at all.
    const config = vscode.workspace.getConfiguration("pi");
    await config.update("sandbox.mode", "full-access", vscode.ConfigurationTarget.Global);
    try {
      await eventually("the agent restarted without the sandbox", async () => (api.supervisor.status === "idle" && api.supervisor.sandboxNote?.label === "Full access") || undefined);
      await walkFindsNoKey();
    } finally {
      await config.update("sandbox.mode", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  async function walkFindsNoKey(): Promise<void> {
    const { api, llm } = host;
    const client = await api.supervisor.ensureStarted();
    await client.request("set_permission_mode", { mode: "auto" });
    await client.request("set_model", { provider: "keyed", modelId: "keyed-model" });
    // The walk goes to a file as well as to the model: the tool result keeps only the tail of a
    // long output (CI's environments are long), and every ancestor must be checked whole.
    const walkFile = path.join(os.tmpdir(), `pi-secrets-walk-${process.pid}-${Date.now()}.txt`);
    const walk = `p=$$; while [ "$p" -gt 1 ]; do echo "== $p"; tr '\\0' '\\n' < /proc/$p/environ; tr '\\0' ' ' < /proc/$p/cmdline; echo; p=$(awk '/^PPid:/{print $2}' /proc/$p/status); done > ${walkFile}; tail -c 2000 ${walkFile}`;
    const count = llm.requests.length;
    llm.enqueue({ text: "Walking.", toolCalls: [{ name: "bash", arguments: { command: walk } }] }, { text: "Walked." });
    await api.chat.prompt("Walk up the process tree");
    await llm.waitForRequests(count + 2);
    await eventually("the run to settle", async () => api.supervisor.status === "idle" && !(await client.request("get_state", {})).isStreaming);
    const toolResult = toolResultMessages(llm.requests[count + 1]).map(messageText).join("\n");
    const output = fs.readFileSync(walkFile, "utf8");
    fs.rmSync(walkFile, { force: true });
    const ancestors = output.split("\n").filter((line) => line.startsWith("== ")).length;
    assert.ok(ancestors >= 2 && output.includes("CEREBRAS_API_KEY="), `the walk read the agent's ancestors:\n${output.slice(0, 400)}`);
    const agentPid = api.supervisor.pid;
    assert.ok(agentPid !== undefined && output.includes(`== ${agentPid}`), "the walk reached the agent's own process");
    // and the files the agent wrote (its agent dir: sessions, settings)
    const places: Place[] = [{ name: "ancestors' /proc environ and cmdline", text: output }, { name: "the tool result the model saw", text: toolResult }, ...filePlaces(host.agentDir, "agent dir")];
    const leaks = scanForSecrets(places, [typed, stored]);
    printFigures(`ancestors walked ${ancestors}, SecretStorage keys found ${leaks.length}`);
    assert.deepEqual(leaks, []);
    assert.deepEqual(llm.requests.slice(count).map((r) => r.headers.authorization), [`Bearer ${stored}`, `Bearer ${stored}`], "the stored key still reached the provider");
  }
});

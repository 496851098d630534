// VS Code's models and tools for the agent, in the real editor (issue #35): a test extension
// (test/vscode/lm-fixture/) registers a scripted chat model through
// vscode.lm.registerLanguageModelChatProvider (stable from VS Code 1.104: code-server 4.139.1 here;
// 4.100.3 has no such API, and there the agent is offered no VS Code model) and one tool through
// vscode.lm.registerTool. Our bundled host reaches the model through the gateway's vscode-lm
// provider, and calls the tool as a host tool once the user chose it (pi.vscodeTools).
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { messageText, toolNames, toolResultMessages } from "../../support/mock-llm";
import { eventually, usePiAgent } from "./agent-fixture";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { requireUi, ui } from "./ui";

interface FixturePart { type: string; text?: string; name?: string; input?: unknown; callId?: string }
interface FixtureExports {
  requests: { messages: { role: number; parts: FixturePart[] }[]; tools: string[] }[];
  lookups: unknown[];
  providerRegistered: boolean;
}

async function fixtureExports(): Promise<FixtureExports> {
  const extension = vscode.extensions.getExtension<FixtureExports>("pi-agent-tests.pi-lm-fixture");
  assert.ok(extension, "the test extension is loaded beside ours");
  return extension.activate();
}

type Client = Awaited<ReturnType<PiExtensionApi["supervisor"]["ensureStarted"]>>;

/** Clicks "Allow" on VS Code's language model access dialog whenever it shows, until stopped. */
function allowModelAccess(): { stop(): void; shown(): number } {
  let stopped = false;
  let shown = 0;
  void (async () => {
    while (!stopped) {
      try {
        await ui.waitForSelector(".monaco-dialog-box", "visible", 500);
        shown++;
        await ui.screenshot("vscode-lm-consent");
        await ui.click('.monaco-dialog-box .monaco-button:has-text("Allow")');
      } catch {
        // no dialog now: look again
      }
    }
  })();
  return { stop: () => (stopped = true), shown: () => shown };
}

async function lastAssistant(client: Client): Promise<{ text: string; stopReason?: string; errorMessage?: string }> {
  const { messages } = (await client.request("get_messages", {})) as { messages: { role: string; content?: unknown; stopReason?: string; errorMessage?: string }[] };
  const last = [...messages].reverse().find((m) => m.role === "assistant");
  const content = Array.isArray(last?.content) ? (last.content as { type: string; text?: string }[]) : [];
  return { text: content.filter((c) => c.type === "text").map((c) => c.text).join(""), ...(last?.stopReason ? { stopReason: last.stopReason } : {}), ...(last?.errorMessage ? { errorMessage: last.errorMessage } : {}) };
}

async function prompt(client: Client, text: string): Promise<void> {
  const settled = client.waitForSettled();
  await client.request("prompt", { message: text });
  await settled;
}

describe("vscode-lm: VS Code's models and tools for every agent", function () {
  this.timeout(180_000);
  let host: HostFixture;
  let fixture: FixtureExports;
  let client: Client;
  const hasProviderApi = typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider === "function";

  before(async function () {
    requireUi(this);
    fixture = await fixtureExports();
    assert.equal(fixture.providerRegistered, hasProviderApi);
    // The harness keeps VS Code's models off for the other suites; the default (on) for this one.
    await vscode.workspace.getConfiguration("pi").update("vscodeModels.enabled", true, vscode.ConfigurationTarget.Global);
    host = await useBundledHost();
    // The test model is listed once VS Code resolved the provider: the agent restarts to read it.
    if (hasProviderApi) await eventually("VS Code to list the test model", async () => (await vscode.lm.selectChatModels({ vendor: "pi-test" })).length > 0);
    await host.api.supervisor.restart();
    client = await host.api.supervisor.ensureStarted();
    await client.request("set_auto_retry", { enabled: false });
  });
  after(async () => {
    await vscode.workspace.getConfiguration("pi").update("vscodeTools", undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("pi").update("vscodeModels.enabled", false, vscode.ConfigurationTarget.Global);
    await host?.dispose();
  });

  it("offers VS Code's models to the agent as the vscode-lm provider (none where VS Code has no provider API)", async () => {
    const { models } = (await client.request("get_available_models", {})) as { models: { provider: string; id: string; name: string }[] };
    const ours = models.filter((m) => m.provider === "vscode-lm").map((m) => `${m.id} ${m.name}`);
    if (!hasProviderApi) {
      assert.deepEqual(ours, [], `VS Code ${vscode.version} registers no test model`);
      return;
    }
    assert.ok(ours.includes("pi-test-model Pi Test Model (VS Code)"), ours.join(", "));
  });

  it("answers a prompt with the test model through the gateway, streamed", async function () {
    if (!hasProviderApi) this.skip(); // VS Code < 1.104: no test model can be registered (checked above)
    await client.request("set_model", { provider: "vscode-lm", modelId: "pi-test-model" });
    const deltas: string[] = [];
    const sub = client.onEvent((event) => {
      const e = event as { type: string; assistantMessageEvent?: { type: string; delta?: string } };
      if (e.type === "message_update" && e.assistantMessageEvent?.type === "text_delta") deltas.push(e.assistantMessageEvent.delta ?? "");
    });
    const consent = allowModelAccess();
    try {
      await prompt(client, "Say hello");
    } finally {
      consent.stop();
      sub.dispose();
    }
    const answer = await lastAssistant(client);
    assert.equal(answer.text, "Hello from the test model.", JSON.stringify(answer));
    // The bundled host joins the deltas of each 25 ms (set_delta_interval), the first at once: the
    // test model's three parts come as two or three, never as one piece at the end.
    assert.ok(deltas.length >= 2, `streamed in parts: ${JSON.stringify(deltas)}`);
    const asked = fixture.requests.at(-1)!;
    assert.ok(asked.tools.includes("read") && asked.tools.includes("editor_read"), `the agent's tools reach the model: ${asked.tools.join(", ")}`);
    console.log(`      figures: VS Code ${vscode.version}: deltas ${deltas.length}, consent dialogs shown ${consent.shown()}`);
  });

  it("calls a VS Code tool the user chose, and sends its result to the model in the next request (the scripted LLM)", async () => {
    assert.ok(vscode.lm.tools.some((t) => t.name === "pi_test_lookup"), "the test tool is registered");
    const offered = async () => toolNames(host.llm.requests.at(-1)!);
    // Not chosen: not offered (none by default).
    await client.request("set_model", { provider: "mock", modelId: "mock-b" });
    host.llm.enqueue({ text: "Nothing to call." });
    await prompt(client, "Which tools?");
    assert.ok(!(await offered()).includes("pi_test_lookup"), "not offered before the user chose it");
    // The user picks it in Pi: Choose VS Code Tools for the Agent; the agent restarts with it.
    const previous = client;
    const choosing = vscode.commands.executeCommand("pi.chooseVscodeTools");
    await eventually("the tool picker to show", async () => (await ui.quickPickItems()).length > 0);
    await ui.pickQuickPickItem("pi_test_lookup"); // filtered to, then checked (VS Code 1.139 lists its own tools too)
    await ui.pressKey("Enter");
    await choosing;
    assert.deepEqual(vscode.workspace.getConfiguration("pi").get("vscodeTools"), ["pi_test_lookup"]);
    client = await eventually("the agent to restart with the tool", () => host.api.supervisor.client !== previous && host.api.supervisor.status === "idle" && host.api.supervisor.client, 60_000);
    await client.request("set_model", { provider: "mock", modelId: "mock-b" });
    const lookups = fixture.lookups.length;
    host.llm.enqueue({ text: "Looking it up.", toolCalls: [{ name: "pi_test_lookup", arguments: { word: "medlar" } }] }, { text: "Done." });
    const count = host.llm.requests.length;
    await prompt(client, "What does medlar mean?");
    assert.ok(toolNames(host.llm.requests[count]!).includes("pi_test_lookup"), "offered as a host tool once chosen");
    assert.deepEqual(fixture.lookups.slice(lookups), [{ word: "medlar" }], "the tool ran through vscode.lm.invokeTool");
    const results = toolResultMessages(host.llm.requests.at(-1)!).map(messageText).join("\n");
    assert.match(results, /medlar means forty-two/);
  });

  it("lets the vscode-lm model call the chosen VS Code tool, and sends it the result", async function () {
    if (!hasProviderApi) this.skip(); // VS Code < 1.104: no test model can be registered (checked in the first test)
    await client.request("set_model", { provider: "vscode-lm", modelId: "pi-test-model" });
    const before = fixture.requests.length;
    const consent = allowModelAccess();
    try {
      await prompt(client, 'CALL pi_test_lookup {"word":"quince"}');
    } finally {
      consent.stop();
    }
    assert.deepEqual(fixture.lookups.at(-1), { word: "quince" }, "the tool ran through vscode.lm.invokeTool");
    const requests = fixture.requests.slice(before);
    assert.equal(requests.length, 2, "one request with the call, one with its result");
    assert.ok(requests[0]!.tools.includes("pi_test_lookup"), `offered as a host tool: ${requests[0]!.tools.join(", ")}`);
    const result = requests[1]!.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool_result").at(-1);
    assert.match(result?.text ?? "", /quince means forty-two/);
    assert.equal((await lastAssistant(client)).text, "The tool said: quince means forty-two");
  });

  it("serves the test model to pi 0.87.1 too, through dist/pi-gateway.mjs", async function () {
    if (!hasProviderApi) this.skip(); // VS Code < 1.104: no test model can be registered (checked in the first test)
    await host.dispose(); // the bundled host's settings off; pi instead
    const pi = await usePiAgent();
    try {
      const piClient = await pi.api.supervisor.ensureStarted();
      await piClient.request("set_model", { provider: "vscode-lm", modelId: "pi-test-model" });
      const before = fixture.requests.length;
      const consent = allowModelAccess();
      try {
        await prompt(piClient, "Say hello");
      } finally {
        consent.stop();
      }
      assert.equal(fixture.requests.length, before + 1, "pi's request reached the test model");
      assert.equal((await lastAssistant(piClient)).text, "Hello from the test model.");
    } finally {
      await pi.dispose();
      host = await useBundledHost(); // for after()
    }
  });
});

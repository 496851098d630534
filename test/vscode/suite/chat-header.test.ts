// The header's pickers: the model name opens a list of the agent's models (get_available_models),
// picking one sends set_model; the thinking level opens the model's levels, picking one sends
// set_thinking_level. Checked against the agent's get_state and the model the next request names.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, openChat, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

/** Two mock models, the second one reasoning (so it has thinking levels). */
function twoModels(baseUrl: string): string {
  const model = (id: string, reasoning: boolean) => ({
    id, name: `Mock ${id}`, reasoning, input: ["text"], contextWindow: 128000, maxTokens: 4096,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  });
  return JSON.stringify({ providers: { mock: { baseUrl, api: "openai-completions", apiKey: "mock-key", models: [model("mock", false), model("mock-think", true)] } } });
}

describe("Pi chat: model and thinking level in the header", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  before(async () => {
    const agent = fixture();
    fs.writeFileSync(path.join(agent.launch.agentDir, "models.json"), twoModels(agent.llm.baseUrl));
    await agent.api.supervisor.restart();
    await openChat();
  });

  it("picks a model from the header: set_model reaches the agent and the next request uses it", async () => {
    const agent = fixture();
    const client = () => agent.api.supervisor.client!;
    assert.equal((await client().request("get_state", {})).model?.id, "mock");
    await chatText("the model in the header", "#model-picker .model-name", (t) => t === "Mock mock");
    await ui.clickInWebview(chatView, "#model-picker");
    const list = await chatText("the list of models", ".picker[data-picker='model-picker']", (t) => t.includes("Mock mock-think"));
    // Each with its context size; the current one marked.
    assert.match(list, /Mock mock\s+mock\/mock · 128k context · current\s+Mock mock-think\s+mock\/mock-think · 128k context\s*$/);
    await ui.screenshot("chat-model-picker");
    await ui.clickInWebview(chatView, ".picker-option:has-text('mock/mock-think')");
    await eventually("the agent on mock-think", async () => (await client().request("get_state", {})).model?.id === "mock-think" || undefined);
    await chatText("the header", "#model-picker .model-name", (t) => t === "Mock mock-think");
    const start = agent.llm.requests.length;
    agent.llm.enqueue({ text: "Thinking model here." });
    await typePrompt("Which model?");
    const [request] = (await agent.llm.waitForRequests(start + 1)).slice(start);
    assert.equal(request.body.model, "mock-think");
    await settled(agent);
  });

  it("picks a thinking level with the keyboard", async () => {
    const agent = fixture();
    const client = agent.api.supervisor.client!;
    const { levels } = await client.request("get_available_thinking_levels", {});
    const before = (await client.request("get_state", {})).thinkingLevel;
    const last = levels.at(-1)!;
    assert.notEqual(before, last, `the test needs a level other than ${before}`);
    await chatText("the thinking level in the header", "#thinking-picker", (t) => t.trim() === before);
    await ui.clickInWebview(chatView, "#thinking-picker");
    await chatText("the levels", ".picker[data-picker='thinking-picker']", (t) => levels.every((l) => t.includes(l)));
    await ui.screenshot("chat-thinking-picker");
    await ui.pressKey("End");
    await ui.pressKey("Enter");
    await eventually("the new level", async () => (await client.request("get_state", {})).thinkingLevel === last || undefined);
    await chatText("the header", "#thinking-picker", (t) => t.trim() === last);
    // Escape closes the list without a change, and focus is back on the button.
    await ui.pressKey("Enter");
    await chatText("the list again", ".picker[data-picker='thinking-picker']");
    await ui.pressKey("Escape");
    await chatText("the list closed, focus on its button", "#thinking-picker:focus[aria-expanded='false']", () => true);
    assert.equal((await client.request("get_state", {})).thinkingLevel, last);
  });

  it("follows the model settings: the agent, the header and the status bar on the model pi.model.id names", async () => {
    // Found by the #32 review: the agent took the setting's model, the header kept the old name.
    const agent = fixture();
    const client = () => agent.api.supervisor.client!;
    const before = (await client().request("get_state", {})).model?.id;
    const target = before === "mock" ? "mock-think" : "mock";
    const pi = vscode.workspace.getConfiguration("pi");
    try {
      await pi.update("model.provider", "mock", vscode.ConfigurationTarget.Global);
      await pi.update("model.id", target, vscode.ConfigurationTarget.Global);
      await eventually("the agent on the setting's model", async () => (await client().request("get_state", {})).model?.id === target || undefined);
      await chatText("the header", "#model-picker .model-name", (t) => t === `Mock ${target}`);
      await eventually("the status bar", async () => (await ui.text('.statusbar-item:has-text("Pi")')).includes(`Mock ${target}`) || undefined);
    } finally {
      await pi.update("model.id", undefined, vscode.ConfigurationTarget.Global);
      await pi.update("model.provider", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

/**
 * Our ACP client (extension/acp/, as the supervisor wires it) driving our own host in
 * `--mode acp` (dist/agent-host.js) against the scripted LLM: the two sides of #36 against each
 * other. The host's models (its config option of category "model") in our model picker, set
 * through session/set_config_option; its saved sessions listed (session/list) and one reopened
 * (session/load) with its history as the chat's transcript.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AcpTransport } from "../../extension/acp/acp-transport";
import { RpcClient } from "../../shared/rpc";
import { messageText, startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerLaunch } from "../support/peers";

describe("Our ACP client driving our host in --mode acp", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let transport: AcpTransport;
  let client: RpcClient;

  beforeEach(async () => {
    assertPeerInstalled("host");
    llm = await startMockLlm();
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl, modelIds: ["mock", "mock-large"] });
    // Reasoning models: the host then offers its thinking option (category thought_level).
    const models = join(launch.agentDir, "models.json");
    writeFileSync(models, readFileSync(models, "utf8").replace(/"reasoning": false/g, '"reasoning": true'));
    const sessionDir = join(launch.agentDir, "acp-sessions");
    mkdirSync(sessionDir, { recursive: true });
    const args = [...launch.args.map((a) => (a === "rpc" ? "acp" : a)).filter((a) => a !== "--no-session"), "--session-dir", sessionDir];
    transport = await AcpTransport.spawn({ command: launch.command, args, cwd: launch.cwd, env: launch.env }, { agentName: "host", files: { readTextFile: async () => "", writeTextFile: async () => undefined } });
    client = new RpcClient(transport);
    await client.request("get_state", {}, { timeoutMs: 30_000 });
  });

  afterEach(async () => {
    await transport.stop(1000);
    client.dispose();
    transport.dispose();
    await llm.close();
    launch.cleanup();
  });

  it("the host's models in our model picker; set_model sends session/set_config_option and the next request uses it", async () => {
    const { models } = await client.request("get_available_models", {});
    assert.deepEqual(models.map((m) => m.id).sort(), ["mock/mock", "mock/mock-large"]);
    assert.equal((await client.request("get_state", {})).model?.id, "mock/mock");
    const set = await client.request("set_model", { provider: models[0]!.provider, modelId: "mock/mock-large" });
    assert.equal(set.id, "mock/mock-large");
    assert.equal((await client.request("get_state", {})).model?.id, "mock/mock-large");
    llm.enqueue({ text: "from the large one" });
    await client.request("prompt", { message: "hi" });
    await client.waitForSettled(30_000);
    assert.equal(llm.requests.at(-1)?.body.model, "mock-large");
    await assert.rejects(client.request("set_model", { provider: "x", modelId: "mock/none" }), /has no model mock\/none/);
  });

  it("Resume Session: the host's sessions listed and one reopened, its history the transcript; the next prompt continues it", async () => {
    llm.enqueue({ text: "the first answer" });
    await client.request("prompt", { message: "the first question" });
    await client.waitForSettled(30_000);
    const first = (await client.request("get_state", {})).sessionId;
    await client.request("new_session", {});
    assert.deepEqual(transport.bridge.sessionSupport, { list: true, load: true });
    const listed = await transport.bridge.listSessions();
    assert.deepEqual(listed.map((s) => [s.sessionId, s.title]), [[first, "the first question"]]);
    await transport.bridge.loadSession(first);
    assert.equal((await client.request("get_state", {})).sessionId, first);
    const { messages } = await client.request("get_messages", {});
    assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
    llm.enqueue({ text: "the second answer" });
    await client.request("prompt", { message: "and then?" });
    await client.waitForSettled(30_000);
    const sent = llm.requests.at(-1)!.body.messages.map(messageText).join("\n");
    assert.match(sent, /the first question[^]*the first answer[^]*and then\?/);
  });

  it("the host's thinking option (category thought_level) as our thinking levels: listed, set, and the next request reasons at that level", async () => {
    const { levels } = await client.request("get_available_thinking_levels", {});
    assert.ok(levels.includes("off") && levels.includes("high"), levels.join(", "));
    await client.request("set_thinking_level", { level: "high" });
    assert.equal((await client.request("get_state", {})).thinkingLevel, "high");
    llm.enqueue({ text: "thought hard" });
    await client.request("prompt", { message: "think" });
    await client.waitForSettled(30_000);
    const body = llm.requests.at(-1)!.body as unknown as Record<string, unknown>;
    assert.equal(body.reasoning_effort, "high", JSON.stringify(body).slice(0, 300));
  });
});

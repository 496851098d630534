/**
 * An ACP agent's model choice (its config option of category "model") in our model picker:
 * get_available_models lists its values, set_model and cycle_model send
 * session/set_config_option, get_state names the current one; config_option_update is followed.
 * Against an in-process ACP agent of the SDK's making.
 */
import { strict as assert } from "node:assert";
import * as os from "node:os";
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { AcpBridge } from "./acp-bridge";

const modelChoice = (current: string): Acp.SessionConfigOption => ({
  type: "select", id: "model", name: "Model", category: "model", currentValue: current,
  options: [{ group: "fast", name: "Fast", options: [{ value: "small", name: "Small" }] }, { group: "big", name: "Big", options: [{ value: "large", name: "Large <b>" }] }],
});
const modeChoice = (current: string): Acp.SessionConfigOption => ({
  type: "select", id: "mode", name: "Session Mode", category: "mode", currentValue: current, options: [{ value: "build", name: "build" }, { value: "plan", name: "plan", description: "no edits" }],
});
const thinking = (current: string): Acp.SessionConfigOption => ({
  type: "select", id: "thinking", name: "Thinking", category: "thought_level", currentValue: current, options: ["off", "low", "high"].map((v) => ({ value: v, name: v })),
});
const effort: Acp.SessionConfigOption = { type: "select", id: "effort", name: "Effort", category: "thought_level", currentValue: "low", options: [{ value: "low", name: "Low" }] };

async function connect(configOptions: Acp.SessionConfigOption[] | undefined, onPrompt: (client: Acp.AgentContext) => Promise<void> = async () => undefined) {
  const acp = (await import("@agentclientprotocol/sdk")) as typeof Acp;
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const sets: unknown[] = [];
  let current = "small";
  acp.agent()
    .onRequest("initialize", () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest("session/new", () => ({ sessionId: "s1", ...(configOptions ? { configOptions } : {}) }))
    .onRequest("session/set_config_option", ({ params }) => {
      sets.push({ configId: params.configId, value: params.value });
      if (params.configId === "mode") return { configOptions: [modelChoice(current), modeChoice(String(params.value))] };
      if (params.configId === "thinking") return { configOptions: [thinking(String(params.value))] };
      if (params.configId !== "model" || (params.value !== "small" && params.value !== "large")) throw acp.RequestError.invalidParams(undefined, "no such value");
      current = String(params.value);
      return { configOptions: [modelChoice(current), effort] };
    })
    .onRequest("session/prompt", async (ctx) => (await onPrompt(ctx.client), { stopReason: "end_turn" as const }))
    .connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  const frames: Record<string, unknown>[] = [];
  const bridge = new AcpBridge(acp, (f) => frames.push(f as Record<string, unknown>), { cwd: os.tmpdir(), agentName: "Agent", files: { readTextFile: async () => "", writeTextFile: async () => undefined } });
  await bridge.connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  const request = async (frame: Record<string, unknown> & { type: string }): Promise<{ success: boolean; data?: never; error?: string }> => {
    const id = `r${frames.length}`;
    bridge.receive({ ...frame, id });
    for (let i = 0; i < 200; i++) {
      const response = frames.find((f) => f.type === "response" && f.id === id);
      if (response) return response as never;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no response to ${frame.type}`);
  };
  return { bridge, frames, sets, request, current: () => current };
}

describe("ACP config options: the agent's models in our model picker", function () {
  this.timeout(20_000);

  it("lists the model option's values (groups flattened) as models of the agent; set_model sends session/set_config_option; get_state names the current", async () => {
    const { bridge, sets, request } = await connect([modelChoice("small"), effort]);
    try {
      const listed = await request({ type: "get_available_models" });
      const models = (listed.data as unknown as { models: { id: string; name: string; provider: string }[] }).models;
      assert.deepEqual(models.map((m) => [m.provider, m.id, m.name]), [["Agent", "small", "Small"], ["Agent", "large", "Large <b>"]]);
      assert.equal(((await request({ type: "get_state" })).data as unknown as { model: { id: string } }).model.id, "small");
      const set = await request({ type: "set_model", provider: "Agent", modelId: "large" });
      assert.equal(set.success, true, set.error);
      assert.deepEqual(sets, [{ configId: "model", value: "large" }]);
      assert.equal(((await request({ type: "get_state" })).data as unknown as { model: { id: string } }).model.id, "large");
      const cycled = await request({ type: "cycle_model" });
      assert.equal((cycled.data as unknown as { model: { id: string } }).model.id, "small");
      const unknown = await request({ type: "set_model", provider: "Agent", modelId: "../../etc" });
      assert.equal(unknown.success, false);
      assert.match(unknown.error ?? "", /has no model/);
      assert.equal(sets.length, 2, "an unknown model is not sent");
    } finally {
      bridge.dispose();
    }
  });

  it("an agent with no model option: no models listed, set_model says it chooses its model itself", async () => {
    const { bridge, request } = await connect([effort]);
    try {
      assert.deepEqual((await request({ type: "get_available_models" })).data, { models: [] });
      const set = await request({ type: "set_model", provider: "x", modelId: "y" });
      assert.equal(set.success, false);
      assert.match(set.error ?? "", /chooses its model itself/);
      assert.equal(((await request({ type: "get_state" })).data as unknown as { model: unknown }).model, null);
    } finally {
      bridge.dispose();
    }
  });

  it("follows the agent's config_option_update (it changed its model itself)", async () => {
    const { bridge, frames, request } = await connect([modelChoice("small")], async (client) => {
      await client.notify("session/update", { sessionId: "s1", update: { sessionUpdate: "config_option_update", configOptions: [modelChoice("large")] } });
    });
    try {
      await request({ type: "prompt", message: "go" });
      for (let i = 0; i < 200 && !frames.some((f) => f.type === "agent_settled"); i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(((await request({ type: "get_state" })).data as unknown as { model: { id: string } }).model.id, "large");
    } finally {
      bridge.dispose();
    }
  });

  it("an agent that offers its modes as a config option of category mode (opencode): our mode picker lists and sets them", async () => {
    const { bridge, sets } = await connect([modelChoice("small"), modeChoice("build")]);
    try {
      const modes = bridge.modeChoice();
      assert.deepEqual(modes && { current: modes.current, available: modes.available }, { current: "build", available: [{ id: "build", name: "build" }, { id: "plan", name: "plan", description: "no edits" }] });
      await modes!.set("plan");
      assert.deepEqual(sets, [{ configId: "mode", value: "plan" }]);
      assert.equal(bridge.modeChoice()?.current, "plan");
      await assert.rejects(modes!.set("yolo"), /has no mode yolo/);
      assert.equal(sets.length, 1, "a mode it did not offer is not sent");
    } finally {
      bridge.dispose();
    }
  });

  it("a thought_level option whose values are our levels (our host's) is our thinking level: listed, shown, set; one that is not leaves ours off and sends nothing", async () => {
    const mapped = await connect([thinking("off")]);
    try {
      assert.deepEqual((await mapped.request({ type: "get_available_thinking_levels" })).data, { levels: ["off", "low", "high"] });
      assert.equal((await mapped.request({ type: "set_thinking_level", level: "high" })).success, true);
      assert.deepEqual(mapped.sets, [{ configId: "thinking", value: "high" }]);
      assert.equal(((await mapped.request({ type: "get_state" })).data as unknown as { thinkingLevel: string }).thinkingLevel, "high");
      const refused = await mapped.request({ type: "set_thinking_level", level: "max" });
      assert.equal(refused.success, false);
      assert.equal(mapped.sets.length, 1, "a level it did not offer is not sent");
    } finally {
      mapped.bridge.dispose();
    }
    const foreign = await connect([{ type: "select", id: "style", name: "Style", category: "thought_level", currentValue: "quick", options: [{ value: "quick", name: "Quick" }, { value: "deep", name: "Deep" }] }]);
    try {
      assert.deepEqual((await foreign.request({ type: "get_available_thinking_levels" })).data, { levels: ["off"] });
      assert.equal((await foreign.request({ type: "set_thinking_level", level: "high" })).success, true);
      assert.deepEqual(foreign.sets, []);
    } finally {
      foreign.bridge.dispose();
    }
  });
});

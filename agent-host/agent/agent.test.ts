import { strict as assert } from "node:assert";
import { Type } from "@sinclair/typebox";
import { setFauxScript, type FauxTurn } from "../ai/faux";
import { stream } from "../ai/stream";
import type { Context, Model, ToolResultMessage } from "../ai/types";
import { Agent } from "./agent";
import { convertToLlm } from "./convert-to-llm";
import type { AgentTool, AnyAgentTool } from "./tool";
import { SKIPPED_FOR_STEERING } from "./tool-runner";
import type { AgentEvent, AgentMessage } from "./types";

let modelCounter = 0;
function fauxModel(script: FauxTurn[] | ((context: Context) => FauxTurn)): Model {
  const id = `faux-${++modelCounter}`;
  setFauxScript(id, script);
  return {
    id, name: id, api: "faux", provider: "faux", baseUrl: "", reasoning: false, input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 1000,
  };
}

const user = (text: string): AgentMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });

function makeAgent(model: Model, tools: AnyAgentTool[] = [], extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
  const agent = new Agent({ model, tools, stream, convertToLlm, ...extra });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  return { agent, events, types: () => events.map((e) => e.type) };
}

const Params = Type.Object({ n: Type.Number() });
function counterTool(name: string, options: { sequential?: boolean; delayMs?: number; onRun?: (n: number) => void } = {}) {
  let active = 0;
  const stats = { maxActive: 0, runs: [] as number[] };
  const tool: AgentTool<typeof Params> = {
    name, label: name, description: `${name} tool`, parameters: Params, sequential: options.sequential,
    async execute(_id, params, signal, onUpdate) {
      active++;
      stats.maxActive = Math.max(stats.maxActive, active);
      stats.runs.push(params.n);
      options.onRun?.(params.n);
      onUpdate({ content: [{ type: "text", text: "working" }] });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.delayMs ?? 20);
        signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });
      active--;
      if (signal.aborted) throw new Error("stopped");
      return { content: [{ type: "text", text: `${name}:${params.n}` }] };
    },
  };
  return { tool, stats };
}

const toolResults = (agent: Agent) => agent.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
const texts = (result: ToolResultMessage) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("Agent loop (faux provider)", () => {
  it("a tool's nested calls take the same path: ids <parent>/<n>, events with parentToolCallId, validation and the before-hook apply", async () => {
    const { tool: inner } = counterTool("count");
    const seen: string[] = [];
    const outer: AnyAgentTool = {
      name: "script", label: "script", description: "runs others", parameters: Type.Object({}),
      async execute(_id, _params, signal, _onUpdate, nested) {
        for (const args of [{ n: 1 }, { n: "bad" }, { n: 666 }]) {
          const outcome = await nested!.runTool(inner as unknown as AnyAgentTool, args, signal);
          seen.push(`${outcome.toolCallId}:${outcome.isError}:${outcome.result.content.map((c) => (c.type === "text" ? c.text : "")).join("")}`);
        }
        return { content: [{ type: "text", text: "ran" }] };
      },
    };
    const { agent, events } = makeAgent(fauxModel([{ toolCalls: [{ id: "s1", name: "script", arguments: {} }] }, { text: "done" }]), [outer], {
      beforeToolCall: (call) => (call.arguments.n === 666 ? { block: true, reason: "Blocked by policy" } : undefined),
    });
    await agent.prompt(user("go"));
    assert.equal(seen[0], "s1/1:false:count:1");
    assert.match(seen[1]!, /^s1\/2:true:/);
    assert.equal(seen[2], "s1/3:true:Blocked by policy");
    const nested = events.filter((e) => (e.type === "tool_execution_start" || e.type === "tool_execution_end") && e.parentToolCallId === "s1");
    assert.deepEqual(nested.map((e) => `${e.type}:${"toolCallId" in e ? e.toolCallId : ""}`), ["tool_execution_start:s1/1", "tool_execution_end:s1/1", "tool_execution_start:s1/2", "tool_execution_end:s1/2", "tool_execution_start:s1/3", "tool_execution_end:s1/3"]);
    assert.ok(events.some((e) => e.type === "tool_execution_update" && e.toolCallId === "s1/1" && e.parentToolCallId === "s1"));
    assert.equal(toolResults(agent).length, 1, "nested calls add no tool result message");
  });

  it("runs a prompt to the end with events in pi's order", async () => {
    const { agent, types } = makeAgent(fauxModel([{ text: ["Hel", "lo"] }]));
    await agent.prompt(user("hi"));
    assert.deepEqual(types(), [
      "agent_start", "turn_start", "message_start", "message_end",
      "message_start", "message_update", "message_update", "message_update", "message_update", "message_end",
      "turn_end", "agent_end",
    ]);
    const last = agent.messages.at(-1)!;
    assert.equal(last.role, "assistant");
    assert.deepEqual(last.role === "assistant" && last.content, [{ type: "text", text: "Hello" }]);
  });

  it("executes tool calls and feeds results back for another turn", async () => {
    const { tool } = counterTool("count");
    const { agent, events } = makeAgent(fauxModel([{ toolCalls: [{ name: "count", arguments: { n: 1 } }] }, { text: "done" }]), [tool]);
    await agent.prompt(user("go"));
    assert.equal(texts(toolResults(agent)[0]), "count:1");
    assert.equal(events.filter((e) => e.type === "turn_start").length, 2);
    const update = events.find((e) => e.type === "tool_execution_update");
    assert.ok(update && update.type === "tool_execution_update" && update.partialResult.content.length === 1);
  });

  it("runs independent tools in parallel and sequential tools alone", async () => {
    const a = counterTool("par");
    const b = counterTool("seq", { sequential: true });
    const calls = (name: string) => [1, 2, 3].map((n) => ({ name, arguments: { n } }));
    const { agent } = makeAgent(fauxModel([{ toolCalls: [...calls("par"), ...calls("seq")] }, { text: "ok" }]), [a.tool, b.tool]);
    await agent.prompt(user("go"));
    assert.equal(a.stats.maxActive, 3);
    assert.equal(b.stats.maxActive, 1);
    assert.deepEqual(toolResults(agent).map(texts), ["par:1", "par:2", "par:3", "seq:1", "seq:2", "seq:3"]);
  });

  it("turns unknown tools, invalid arguments and blocked calls into error results, and coerces types", async () => {
    const { tool, stats } = counterTool("count");
    const model = fauxModel([
      { toolCalls: [{ name: "nope", arguments: {} }, { name: "count", arguments: {} }, { name: "count", arguments: { n: "7" } }, { name: "count", arguments: { n: 666 } }] },
      { text: "ok" },
    ]);
    const { agent } = makeAgent(model, [tool], {
      beforeToolCall: (call) => (call.arguments.n === 666 ? { block: true, reason: "Blocked by policy" } : undefined),
    });
    await agent.prompt(user("go"));
    const results = toolResults(agent);
    assert.deepEqual(results.map((r) => r.isError), [true, true, false, true]);
    assert.match(texts(results[0]), /Tool nope not found/);
    assert.match(texts(results[1]), /Invalid arguments for count: .*missing n/);
    assert.equal(texts(results[2]), "count:7");
    assert.equal(texts(results[3]), "Blocked by policy");
    assert.deepEqual(stats.runs, [7]);
  });

  it("wait mode: steering waits for the turn's tools, then goes into the next turn", async () => {
    let agentRef: Agent | undefined;
    const { tool, stats } = counterTool("count", { onRun: (n) => n === 1 && agentRef!.steer(user("change of plan")) });
    const seen: string[] = [];
    const model = fauxModel((context) => {
      const lastUser = [...context.messages].reverse().find((m) => m.role === "user");
      seen.push(JSON.stringify(lastUser?.content));
      return context.messages.length === 1 ? { toolCalls: [1, 2, 3].map((n) => ({ name: "count", arguments: { n } })) } : { text: "ok" };
    });
    const { agent } = makeAgent(model, [tool]);
    agentRef = agent;
    await agent.prompt(user("go"));
    assert.deepEqual(stats.runs, [1, 2, 3]);
    assert.match(seen[1], /change of plan/);
  });

  it("immediate mode: a queued steer skips the remaining tool calls", async () => {
    let agentRef: Agent | undefined;
    const { tool, stats } = counterTool("count", { onRun: (n) => n === 1 && agentRef!.steer(user("stop that")) });
    const model = fauxModel((context) => (context.messages.length === 1 ? { toolCalls: [1, 2, 3].map((n) => ({ name: "count", arguments: { n } })) } : { text: "ok" }));
    const { agent } = makeAgent(model, [tool], { interruptMode: "immediate" });
    agentRef = agent;
    await agent.prompt(user("go"));
    assert.deepEqual(stats.runs, [1]);
    assert.deepEqual(toolResults(agent).map(texts), ["count:1", SKIPPED_FOR_STEERING, SKIPPED_FOR_STEERING]);
    assert.ok(agent.messages.some((m) => m.role === "user" && JSON.stringify(m.content).includes("stop that")));
  });

  it("takes steering one at a time or all at once, and follow-ups before stopping, in one run", async () => {
    for (const mode of ["one-at-a-time", "all"] as const) {
      const requests: number[] = [];
      const model = fauxModel((context) => (requests.push(context.messages.length), { text: "ok", delayMs: 5 }));
      const { agent, types } = makeAgent(model, [], { steeringMode: mode });
      agent.steer(user("s1"));
      agent.steer(user("s2"));
      agent.followUp(user("f1"));
      await agent.continue();
      const userCount = agent.messages.filter((m) => m.role === "user").length;
      assert.equal(userCount, 3);
      assert.equal(types().filter((t) => t === "agent_end").length, 1);
      assert.equal(requests.length, mode === "all" ? 2 : 3, mode);
    }
  });

  it("reports queue changes", async () => {
    const { agent } = makeAgent(fauxModel([{ text: "ok" }]));
    const sizes: string[] = [];
    agent.onQueueChange((q) => sizes.push(`${q.steering.length}/${q.followUp.length}`));
    agent.steer(user("a"));
    agent.followUp(user("b"));
    assert.deepEqual(agent.clearQueues().steering.length, 1);
    assert.deepEqual(sizes, ["1/0", "1/1", "0/0"]);
  });

  it("aborts while streaming: the message ends as aborted and the run ends", async () => {
    const { agent, events } = makeAgent(fauxModel([{ text: ["a", "b", "c", "d"], delayMs: 30 }]));
    const run = agent.prompt(user("go"));
    await new Promise((r) => setTimeout(r, 45));
    await agent.abort();
    await run;
    const last = agent.messages.at(-1)!;
    assert.equal(last.role === "assistant" && last.stopReason, "aborted");
    assert.equal(events.at(-1)?.type, "agent_end");
    assert.equal(agent.isRunning, false);
  });

  it("aborts while tools run: the running tool sees the signal and later calls are not started", async () => {
    const { tool, stats } = counterTool("count", { sequential: true, delayMs: 2000 });
    const { agent } = makeAgent(fauxModel([{ toolCalls: [1, 2].map((n) => ({ name: "count", arguments: { n } })) }, { text: "never" }]), [tool]);
    const run = agent.prompt(user("go"));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await agent.abort();
    await run;
    assert.ok(Date.now() - started < 1000, "abort does not wait for the tool's natural end");
    assert.deepEqual(stats.runs, [1]);
    const results = toolResults(agent);
    assert.equal(results.length, 2);
    assert.ok(results.every((r) => r.isError));
    assert.equal(agent.messages.filter((m) => m.role === "assistant").length, 1);
  });

  it("refuses a second prompt while running", async () => {
    const { agent } = makeAgent(fauxModel([{ text: ["x", "y"], delayMs: 20 }]));
    const run = agent.prompt(user("one"));
    await assert.rejects(agent.prompt(user("two")), /already processing/);
    await run;
  });

  it("ends the run with an error message when the provider fails", async () => {
    const { agent, types } = makeAgent(fauxModel([{ error: "503 overloaded" }]));
    await agent.prompt(user("go"));
    const last = agent.messages.at(-1)!;
    assert.equal(last.role === "assistant" && last.stopReason, "error");
    assert.equal(last.role === "assistant" && last.errorMessage, "503 overloaded");
    assert.deepEqual(types().slice(-2), ["turn_end", "agent_end"]);
  });
});

describe("convertToLlm", () => {
  it("keeps model messages, turns commands, extension messages and summaries into user text, drops the rest", () => {
    const t = 1;
    const out = convertToLlm([
      { role: "system", content: "sys", timestamp: t },
      { role: "user", content: "u", timestamp: t },
      { role: "bashExecution", command: "ls", output: "a\n", exitCode: 0, cancelled: false, truncated: false, timestamp: t },
      { role: "bashExecution", command: "secret", output: "x", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true, timestamp: t },
      { role: "custom", customType: "note", content: "from ext", display: true, timestamp: t },
      { role: "compactionSummary", summary: "earlier stuff", tokensBefore: 10, timestamp: t },
    ]);
    assert.deepEqual(out.map((m) => m.role), ["user", "user", "user", "user"]);
    assert.match(JSON.stringify(out[1]), /Ran `ls`/);
    assert.match(JSON.stringify(out[3]), /earlier stuff/);
  });
});

/**
 * Nested tool calls (a codemode script's): a tool that must run alone (`sequential`, Pi's
 * executionMode "sequential") runs one call at a time even when a script starts several at once,
 * and its own nested calls do not wait on the queue it holds (no deadlock); other tools run together.
 */
import { strict as assert } from "node:assert";
import { Type } from "@sinclair/typebox";
import type { ToolCall } from "../ai/types";
import type { AgentTool, AnyAgentTool } from "./tool";
import { runToolCalls } from "./tool-runner";
import type { AgentLoopConfig } from "./types";

function tracked(name: string, sequential: boolean, inner?: () => AnyAgentTool): AgentTool & { maxActive: number } {
  let active = 0;
  const tool = {
    name, label: name, description: name, parameters: Type.Object({}), maxActive: 0,
    ...(sequential ? { sequential: true } : {}),
    async execute(_id: string, _args: unknown, signal: AbortSignal, _update: unknown, nested?: { runTool(t: AnyAgentTool, a: unknown, s: AbortSignal): Promise<unknown> }) {
      active++;
      tool.maxActive = Math.max(tool.maxActive, active);
      if (inner) await nested!.runTool(inner(), {}, signal);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return { content: [{ type: "text" as const, text: "ok" }] };
    },
  };
  return tool as AgentTool & { maxActive: number };
}

/** A parent tool that starts `count` nested calls of `child` at once, as `Promise.all` in a script does. */
function fanOut(child: AnyAgentTool, count: number): AnyAgentTool {
  return {
    name: "script", label: "script", description: "script", parameters: Type.Object({}),
    async execute(_id, _args, signal, _update, nested) {
      await Promise.all(Array.from({ length: count }, () => nested!.runTool(child, {}, signal)));
      return { content: [{ type: "text", text: "done" }] };
    },
  };
}

const config = (tools: AnyAgentTool[]) => ({ tools, interruptMode: "wait", hasSteering: () => false }) as unknown as AgentLoopConfig;
const call = (name: string, id = "c1"): ToolCall => ({ type: "toolCall", id, name, arguments: {} });

describe("nested tool calls", () => {
  it("a sequential tool runs one nested call at a time; a parallel one runs them together", async () => {
    const seq = tracked("todo", true);
    const par = tracked("read", false);
    await runToolCalls([call("script")], { config: config([fanOut(seq, 4), seq]), signal: new AbortController().signal, emit: () => undefined });
    await runToolCalls([call("script")], { config: config([fanOut(par, 4), par]), signal: new AbortController().signal, emit: () => undefined });
    assert.equal(seq.maxActive, 1, "sequential calls overlapped");
    assert.equal(par.maxActive, 4);
  });

  it("two scripts of one message share the queue; a sequential tool's own nested call does not wait for it", async () => {
    const leaf = tracked("leaf", true);
    const seq = tracked("todo", true, () => leaf);
    const events: string[] = [];
    const results = await runToolCalls([call("a", "c1"), call("b", "c2")], {
      config: config([{ ...fanOut(seq, 2), name: "a" }, { ...fanOut(seq, 2), name: "b" }, seq, leaf]),
      signal: new AbortController().signal,
      emit: (e) => events.push(e.type),
    });
    assert.deepEqual(results.map((r) => r.isError), [false, false]);
    assert.equal(seq.maxActive, 1);
  });
});

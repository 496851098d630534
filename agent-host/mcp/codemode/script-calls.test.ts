/**
 * How many tool calls one codemode script has running at once: a `Promise.all` over many calls
 * runs at most MAX_SCRIPT_CALLS of them together, the rest waiting for a free slot, and every
 * call still returns its own result (the real QuickJS worker, dist/codemode-worker.js).
 */
import { strict as assert } from "node:assert";
import { Type } from "@sinclair/typebox";
import type { AnyAgentTool, NestedToolRunner } from "../../agent/tool";
import { createCodemodeTool, MAX_SCRIPT_CALLS } from "./tool";

describe("codemode: parallel calls of one script", function () {
  this.timeout(30_000);

  it(`runs at most ${MAX_SCRIPT_CALLS} calls at once; the others wait and all return`, async () => {
    let active = 0;
    let maxActive = 0;
    const slow: AnyAgentTool = {
      name: "slow", label: "slow", description: "slow", parameters: Type.Object({ i: Type.Number() }),
      async execute(_id, args) {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 15));
        active--;
        return { content: [{ type: "text", text: `r${(args as { i: number }).i}` }] };
      },
    };
    let n = 0;
    const nested: NestedToolRunner = {
      async runTool(tool, args, signal) {
        const result = await tool.execute(`n${++n}`, args, signal, () => undefined);
        return { toolCallId: `c/${n}`, result, isError: false };
      },
    };
    const codemode = createCodemodeTool({ callable: () => [{ tool: slow, mcp: false, searchable: { name: "slow", description: "slow", parameterText: "", serverText: "" } }], settled: async () => undefined });
    const count = MAX_SCRIPT_CALLS * 3 + 1;
    const result = await codemode.execute("c", { code: `const out = await Promise.all(Array.from({ length: ${count} }, (_, i) => tools.slow({ i })));\nreturn out.join(",");` }, new AbortController().signal, () => undefined, nested);
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    assert.ok(!result.isError, text);
    assert.match(text, new RegExp(Array.from({ length: count }, (_, i) => `r${i}`).join(",")));
    assert.equal(maxActive, MAX_SCRIPT_CALLS);
  });
});

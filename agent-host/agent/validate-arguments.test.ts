/**
 * A tool whose parameter schema cannot be compiled (an MCP server's or an extension's: a remote
 * `$ref`, an unknown type) fails its own calls with a reason the model reads; it never throws out
 * of the tool runner, which would end the whole run.
 */
import { strict as assert } from "node:assert";
import type { TSchema } from "@sinclair/typebox";
import type { AnyAgentTool } from "./tool";
import { validateToolArguments } from "./validate-arguments";

const toolWith = (parameters: unknown): AnyAgentTool => ({
  name: "mcp__srv__odd",
  label: "odd",
  description: "",
  parameters: parameters as TSchema,
  execute: async () => ({ content: [] }),
});

describe("tool arguments against a schema that cannot be compiled", () => {
  for (const [what, schema] of [
    ["a remote $ref", { type: "object", properties: { a: { $ref: "http://example.invalid/schema.json" } } }],
    ["an unknown type", { type: "object", properties: { a: { type: "strange" } } }],
    ["a pattern that is no regex", { type: "object", properties: { a: { type: "string", pattern: "(" } } }],
  ] as const) {
    it(`${what}: the call fails with the reason, nothing is thrown`, () => {
      const checked = validateToolArguments(toolWith(schema), { a: "x" });
      assert.equal(checked.ok, false);
      assert.match((checked as { error: string }).error, /parameter schema of mcp__srv__odd cannot be used/);
    });
  }

  it("a good schema still validates and coerces", () => {
    const checked = validateToolArguments(toolWith({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }), { n: "5" });
    assert.deepEqual(checked, { ok: true, args: { n: 5 } });
  });
});

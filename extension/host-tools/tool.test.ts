import * as assert from "node:assert/strict";
import { Type } from "@sinclair/typebox";
import { lazySchema } from "../../shared/protocol/lazy-schema";
import { CancellationTokenSource } from "vscode-jsonrpc";
import { CancelledError, defineTool, raceCancellation } from "./tool";

const Params = lazySchema(() => Type.Object({ path: Type.String(), line: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false }));

function context(source = new CancellationTokenSource()) {
  const updates: unknown[] = [];
  return { updates, source, value: { token: source.token, toolCallId: "call_1", update: (partial: unknown) => void updates.push(partial) } };
}

describe("editor tools: defineTool", () => {
  it("offers its schema as JSON Schema and runs with checked arguments", async () => {
    const tool = defineTool({ name: "t", label: "T", description: "d", parameters: Params, run: async (args) => ({ content: [{ type: "text", text: args.path }] }) });
    assert.deepEqual(JSON.parse(JSON.stringify(tool.definition.parameters)).required, ["path"]);
    const outcome = await tool.execute({ path: "a.ts" }, context().value);
    assert.deepEqual(outcome, { content: [{ type: "text", text: "a.ts" }] });
  });

  it("answers invalid arguments and thrown errors with error results for the model", async () => {
    const tool = defineTool({ name: "t", label: "T", description: "d", parameters: Params, run: async () => { throw new Error("boom: try again"); } });
    const invalid = await tool.execute({ path: 3, extra: true }, context().value);
    assert.equal(invalid.isError, true);
    assert.equal((invalid.content[0] as { text: string }).text, "Invalid arguments for t: arguments: unknown property extra; /path: must be string");
    const failed = await tool.execute({ path: "a" }, context().value);
    assert.deepEqual(failed, { content: [{ type: "text", text: "boom: try again" }], isError: true });
  });

  it("says cancelled when the token is cancelled while it runs", async () => {
    const ctx = context();
    const tool = defineTool({
      name: "slow",
      label: "Slow",
      description: "d",
      parameters: Params,
      run: (_args, { token }) => raceCancellation(new Promise<never>(() => undefined), token),
    });
    const running = tool.execute({ path: "a" }, ctx.value);
    ctx.source.cancel();
    assert.deepEqual(await running, { content: [{ type: "text", text: "slow was cancelled." }], isError: true });
  });

  it("raceCancellation settles with the work or rejects with CancelledError", async () => {
    const source = new CancellationTokenSource();
    assert.equal(await raceCancellation(Promise.resolve(7), source.token), 7);
    source.cancel();
    await assert.rejects(raceCancellation(Promise.resolve(7), source.token), CancelledError);
  });
});

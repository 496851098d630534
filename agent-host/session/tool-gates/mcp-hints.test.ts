/**
 * MCP tool annotations in the gates: a read-only tool runs without a question (and in plan mode),
 * a destructive one is asked in every mode (auto too) with no "for this session" answer, any
 * other MCP tool is asked like bash (ask and acceptEdits, not auto).
 */
import { strict as assert } from "node:assert";
import type { PermissionMode } from "../../../shared/protocol";
import { createModeGate } from "./permission-mode";
import { ALLOW_ONCE, DENY, createPermissionGate, type ToolHints } from "./permission-policy";

const hints: Record<string, ToolHints> = {
  mcp__srv__lookup: { readOnly: true, destructive: false },
  mcp__srv__drop_table: { readOnly: false, destructive: true },
  mcp__srv__create: { readOnly: false, destructive: false },
};
const call = (name: string) => ({ type: "toolCall" as const, id: "c", name, arguments: { table: "users" } });
const signal = new AbortController().signal;

function gate(mode: PermissionMode, answer: string | undefined) {
  const asked: { title: string; options: string[] }[] = [];
  const g = createPermissionGate(new Set(["bash", "edit", "write"]), async (title, options) => (asked.push({ title, options }), answer), { cwd: "/w", mode: () => mode, toolHints: (t) => hints[t] });
  return { g, asked };
}

describe("MCP tool annotations in the permission gates", () => {
  it("a read-only MCP tool is never asked", async () => {
    for (const mode of ["ask", "acceptEdits", "auto"] as const) {
      const { g, asked } = gate(mode, DENY);
      assert.equal(await g(call("mcp__srv__lookup"), signal), undefined, mode);
      assert.equal(asked.length, 0, mode);
    }
  });

  it("a destructive MCP tool is asked in every mode, auto included, once or not at all", async () => {
    for (const mode of ["ask", "acceptEdits", "auto"] as const) {
      const { g, asked } = gate(mode, DENY);
      const verdict = await g(call("mcp__srv__drop_table"), signal);
      assert.ok(verdict?.block, `${mode}: denied`);
      assert.deepEqual(asked[0]?.options, [ALLOW_ONCE, DENY], mode);
      assert.match(asked[0]!.title, /marks it destructive[\s\S]*"table":"users"/);
    }
    const { g } = gate("auto", ALLOW_ONCE);
    assert.equal(await g(call("mcp__srv__drop_table"), signal), undefined);
  });

  it("another MCP tool is asked in ask and acceptEdits, not in auto", async () => {
    for (const [mode, questions] of [["ask", 1], ["acceptEdits", 1], ["auto", 0]] as const) {
      const { g, asked } = gate(mode, ALLOW_ONCE);
      assert.equal(await g(call("mcp__srv__create"), signal), undefined);
      assert.equal(asked.length, questions, mode);
    }
  });

  it("plan mode lets a read-only MCP tool run and refuses the others", async () => {
    const plan = createModeGate(() => "plan", (t) => hints[t]?.readOnly === true);
    assert.equal(await plan(call("mcp__srv__lookup")), undefined);
    assert.ok((await plan(call("mcp__srv__create")))?.block);
    assert.ok((await plan(call("mcp__srv__drop_table")))?.block);
  });
});

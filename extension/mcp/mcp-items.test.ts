import { strict as assert } from "node:assert";
import type { McpServerStatus } from "../../shared/protocol";
import { mcpServerActions, mcpServerItems, signInChoices } from "./mcp-items";

const server = (over: Partial<McpServerStatus>): McpServerStatus => ({ name: "s", source: "user", transport: "stdio", state: "connected", exposure: "direct", tools: 3, ...over });

describe("MCP quick pick items", () => {
  it("lists failed servers first, with state, tools, exposure, transport and source", () => {
    const items = mcpServerItems([server({ name: "ok" }), server({ name: "bad", state: "failed", tools: 0, error: "spawn x ENOENT\nstderr: …", source: "project" })]);
    assert.deepEqual(items.map((i) => i.label), ["bad", "ok"]);
    assert.equal(items[0]!.description, "failed · 0 tools · direct · stdio · .pi/mcp.json");
    assert.equal(items[0]!.detail, "spawn x ENOENT");
    assert.equal(items[1]!.description, "connected · 3 tools · direct · stdio · ~/.pi/agent/mcp.json");
  });

  it("shows a server's error as plain text: no icon syntax, no hidden characters", () => {
    const [item] = mcpServerItems([server({ state: "failed", error: "$(check) fine\u202Eevil" })]);
    assert.ok(!item!.detail!.startsWith("$("), item!.detail);
    assert.ok(!item!.detail!.includes("\u202E"), item!.detail);
  });

  it("a server waiting for a sign-in comes first and offers Sign in first; stdio servers offer none", () => {
    const items = mcpServerItems([server({ name: "a" }), server({ name: "web", transport: "http", state: "needs-auth", error: "requires sign-in" })]);
    assert.equal(items[0]!.label, "web");
    assert.deepEqual(mcpServerActions(items[0]!.server).map((a) => a.action), ["sign-in", "sign-out"]);
    assert.deepEqual(mcpServerActions(server({ state: "failed", error: "boom" })).map((a) => a.action), ["show-error"]);
    assert.deepEqual(mcpServerActions(server({})), []);
  });

  it("the sign-in question shows the page whole, as text", () => {
    const [open] = signInChoices(new URL("https://auth.example/authorize?client_id=$(check)&state=x"));
    assert.equal(open!.action, "open");
    assert.ok(open!.detail.includes("auth.example/authorize?client_id="), open!.detail);
    assert.ok(!/(^|[^\\])\$\(/.test(open!.detail), `no icon syntax of its own: ${open!.detail}`);
  });
});

/**
 * The same mcp.json in our host and in pi 1.5.2 (the real peer), with the reference server: the
 * same direct tools with the same parameters, and the same mcp_servers section for a deferred one.
 */
import { strict as assert } from "node:assert";
import { toolNames } from "../support/mock-llm";
import { mcpTools, run, start, stdioServer, stop, systemText } from "./mcp-support";

describe("the same mcp.json in our host and pi 1.5.2", function () {
  this.timeout(120_000);

  it("offers the same direct MCP tools with the same parameters", async function () {
    const config = { mcpServers: { everything: stdioServer({ exposure: "direct" }) } };
    const offered: Record<string, Map<string, string>> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const s = await start(kind, config);
      try {
        await run(s, "hi");
        const tools = (s.llm.requests[0]!.body.tools ?? []).filter((t) => t.function.name.startsWith("mcp__") || /_mcp_resource/.test(t.function.name));
        offered[kind] = new Map(tools.map((t) => [t.function.name, JSON.stringify(Object.keys((t.function.parameters as { properties?: object }).properties ?? {}).sort())]));
      } finally {
        await stop(s);
      }
    }
    assert.ok(offered.host!.size > 5, `host offered ${offered.host!.size}`);
    assert.deepEqual([...offered.host!.keys()].sort(), [...offered["pi-1.5.2"]!.keys()].sort());
    for (const [name, params] of offered.host!) assert.equal(params, offered["pi-1.5.2"]!.get(name), name);
  });

  it("declares tool_search and writes the same mcp_servers section for a deferred server", async function () {
    const config = { mcpServers: { "docs-web": stdioServer({ exposure: "deferred", description: "Reference server: echo, sums, images" }) } };
    const seen: Record<string, { search: boolean; mcp: string[]; section: string | undefined }> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const s = await start(kind, config);
      try {
        await run(s, "hi");
        const request = s.llm.requests[0]!;
        const system = systemText(request);
        seen[kind] = { search: toolNames(request).includes("tool_search"), mcp: mcpTools(request), section: /MCP servers whose tools are not declared to you\.[^\n]*(\n- [^\n]*)*/.exec(system)?.[0] };
      } finally {
        await stop(s);
      }
    }
    assert.deepEqual(seen.host, seen["pi-1.5.2"]);
    assert.equal(seen.host!.search, true);
    assert.deepEqual(seen.host!.mcp, []);
    assert.match(seen.host!.section ?? "", /- mcp__docs_web \(tool_search\): Reference server: echo, sums, images/);
  });
});

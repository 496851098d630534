/**
 * VS Code's MCP servers offered by the editor to our host (PI_EDITOR_MCP_SERVERS, named in
 * PI_SECRET_ENV, as extension/supervision/agent-command.ts passes them): the host connects them
 * beside mcp.json's, reports them with source "vscode", lets an mcp.json server of the same name
 * win, and keeps the offer out of every process it starts (the server's own environment included).
 */
import { strict as assert } from "node:assert";
import { messageText, toolResultMessages } from "../support/mock-llm";
import { mcpTools, run, start, stdioServer, stop, type Started } from "./mcp-support";

const offer = (servers: object) => ({ PI_SECRET_ENV: "PI_EDITOR_MCP_SERVERS", PI_EDITOR_MCP_SERVERS: JSON.stringify(servers) });

describe("VS Code's MCP servers offered to the agent host", function () {
  this.timeout(120_000);
  let s: Started | undefined;
  afterEach(async () => {
    await stop(s);
    s = undefined;
  });

  it("an offered server is connected, called, reported as VS Code's; the offer reaches no process the host starts", async function () {
    s = await start("host", undefined, { env: offer({ everything: { ...stdioServer({ env: { KEPT: "plain-value" } }), exposure: "direct" } }) });
    s.llm.enqueue({ toolCalls: [{ id: "env", name: "mcp__everything__get_env", arguments: {} }] }, { text: "done" });
    await run(s, "show env");
    assert.ok(mcpTools(s.llm.requests[0]!).includes("mcp__everything__get_env"));
    const text = messageText(toolResultMessages(s.llm.requests[1]!)[0]!);
    assert.match(text, /plain-value/);
    assert.ok(!text.includes("PI_EDITOR_MCP_SERVERS"), "the offer is not in the server's environment");
    const { servers } = await s.peer.client.request("get_mcp_servers", {});
    assert.deepEqual(servers.map((x) => [x.name, x.source]), [["everything", "vscode"]]);
  });

  it("mcp.json's server of the same name wins; a malformed offer is reported and ignored", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }) } }, { env: offer({ everything: { command: "/nonexistent/should-not-run" } }) });
    await run(s, "hi");
    const { servers } = await s.peer.client.request("get_mcp_servers", {});
    assert.deepEqual(servers.map((x) => [x.name, x.source, x.state]), [["everything", "user", "connected"]]);
    await stop(s);
    s = await start("host", undefined, { env: { PI_SECRET_ENV: "PI_EDITOR_MCP_SERVERS", PI_EDITOR_MCP_SERVERS: '{"x": {"command": 5}}' } });
    await run(s, "hi");
    assert.match(s.peer.client.recentStderr, /VS Code's MCP servers offered by the editor: not mcp.json entries; none used/);
    assert.deepEqual((await s.peer.client.request("get_mcp_servers", {})).servers, []);
  });
});

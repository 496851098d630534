/**
 * RFC 9207 in a sign-in (agent-host/mcp/oauth/issuer-check.ts), against the SDK's own
 * authorization server on loopback (test/support/mcp-oauth-server.ts): an answer to the redirect
 * that names no issuer where the metadata says it always does, or names another one, is refused
 * plainly (on the page and in the error) and its code is never exchanged.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOAuthMcpServer, type OAuthMcpServer } from "../support/mcp-oauth-server";
import { startSignIn } from "../../agent-host/mcp/oauth/sign-in";
import { mcpAuthSlot } from "../../agent-host/mcp/oauth/store";

interface Outcome {
  page: { status: number; text: string };
  error?: string;
  exchanges: number;
  signedIn: boolean;
}

/** A sign-in whose browser step approves at once; what the page said and how the sign-in ended. */
async function signIn(server: OAuthMcpServer): Promise<Outcome> {
  const slot = mcpAuthSlot(mkdtempSync(join(tmpdir(), "mcp-iss-")), "guarded", server.url);
  const started = await startSignIn({ serverUrl: server.url, settings: {}, slot, signal: new AbortController().signal, timeoutMs: 10_000 });
  const ended = started.done.then(() => undefined, (e: unknown) => (e instanceof Error ? e.message : String(e)));
  const approved = await fetch(started.authorizationUrl!, { redirect: "manual" });
  const back = await fetch(approved.headers.get("location")!);
  const page = { status: back.status, text: await back.text() };
  const error = await ended;
  return { page, ...(error ? { error } : {}), exchanges: server.provider.counts.exchanges, signedIn: slot.load().tokens !== undefined };
}

describe("MCP OAuth: the issuer of an authorization answer (RFC 9207)", function () {
  this.timeout(60_000);
  let server: OAuthMcpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const advertised = { authorization_response_iss_parameter_supported: true };
  const issuerOf = (s: OAuthMcpServer): string => new URL("/", s.url).href;

  it("advertised, and the answer names the server: signed in", async function () {
    server = await startOAuthMcpServer({ metadata: advertised });
    server.provider.iss = issuerOf(server);
    const outcome = await signIn(server);
    assert.deepEqual({ status: outcome.page.status, error: outcome.error, exchanges: outcome.exchanges, signedIn: outcome.signedIn }, { status: 200, error: undefined, exchanges: 1, signedIn: true });
  });

  it("advertised, and the answer names no issuer: refused, the code never exchanged", async function () {
    server = await startOAuthMcpServer({ metadata: advertised });
    const outcome = await signIn(server);
    assert.equal(outcome.page.status, 400);
    assert.match(outcome.page.text, /Sign-in refused: .*names no issuer \(RFC 9207\)/);
    assert.match(outcome.error ?? "", /names itself \(iss\) in its answers, but this answer names no issuer/);
    assert.deepEqual([outcome.exchanges, outcome.signedIn], [0, false]);
  });

  for (const [what, metadata] of [["advertised", advertised], ["not advertised", undefined]] as const) {
    it(`${what}, and the answer names another issuer: refused, the code never exchanged`, async function () {
      server = await startOAuthMcpServer(metadata ? { metadata } : {});
      server.provider.iss = "https://evil.example/";
      const outcome = await signIn(server);
      assert.equal(outcome.page.status, 400);
      assert.match(outcome.error ?? "", new RegExp(`comes from the issuer https://evil\\.example/, not ${issuerOf(server).replace(/[.]/g, "\\.")}, the authorization server this sign-in went to`));
      assert.deepEqual([outcome.exchanges, outcome.signedIn], [0, false]);
    });
  }

  // A mix-up's forged metadata (#34 hostile review): the server this sign-in went to claims another
  // server's issuer in its metadata (nothing checks that the document names the address it came
  // from), so an answer from that other server, with its code, passed as this one's.
  for (const [what, metadata] of [["advertised", advertised], ["not advertised", undefined]] as const) {
    it(`${what}, metadata naming another server as its issuer, and the answer names that one: refused, the code never exchanged`, async function () {
      server = await startOAuthMcpServer({ metadata: { ...metadata, issuer: "https://honest.example/" } });
      server.provider.iss = "https://honest.example/";
      const outcome = await signIn(server);
      assert.equal(outcome.page.status, 400);
      assert.match(outcome.error ?? "", new RegExp(`comes from the issuer https://honest\\.example/, not ${issuerOf(server).replace(/[.]/g, "\\.")}`));
      assert.deepEqual([outcome.exchanges, outcome.signedIn], [0, false]);
    });
  }

  it("metadata whose issuer differs from its address only by a trailing slash, the answer naming it: signed in", async function () {
    server = await startOAuthMcpServer({ metadata: advertised });
    server.provider.iss = issuerOf(server).replace(/\/$/, "");
    const outcome = await signIn(server);
    assert.deepEqual([outcome.page.status, outcome.error, outcome.signedIn], [200, undefined, true]);
  });

  it("not advertised, and no issuer named: signed in as before", async function () {
    server = await startOAuthMcpServer();
    const outcome = await signIn(server);
    assert.deepEqual([outcome.page.status, outcome.error, outcome.signedIn], [200, undefined, true]);
  });

  it("an issuer that carries markup and control characters is shown inert", async function () {
    server = await startOAuthMcpServer({ metadata: advertised });
    server.provider.iss = "<script>alert(1)</script>\u202e\n";
    const outcome = await signIn(server);
    assert.equal(outcome.page.status, 400);
    assert.doesNotMatch(outcome.page.text, /<script>/);
    assert.match(outcome.page.text, /&#60;script&#62;/);
    assert.doesNotMatch(outcome.error ?? "", /[\u202e\n]/);
    assert.equal(outcome.signedIn, false);
  });
});

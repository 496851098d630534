/**
 * `oauth.clientRegistration` (pi's `auto` / `dcr` / `cimd`) in a sign-in, against the SDK's own
 * authorization server on loopback: this host has no Client ID Metadata Document of its own, so
 * `auto` and `dcr` register a client and `cimd` is refused plainly, registering nothing.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOAuthMcpServer, type OAuthMcpServer } from "../support/mcp-oauth-server";
import { startSignIn } from "../../agent-host/mcp/oauth/sign-in";
import { mcpAuthSlot } from "../../agent-host/mcp/oauth/store";

describe("MCP OAuth: client registration", function () {
  this.timeout(60_000);
  let server: OAuthMcpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const begin = (s: OAuthMcpServer, clientRegistration: "auto" | "dcr" | "cimd") =>
    startSignIn({ serverUrl: s.url, settings: { clientRegistration }, slot: mcpAuthSlot(mkdtempSync(join(tmpdir(), "mcp-reg-")), "guarded", s.url), signal: new AbortController().signal, timeoutMs: 5_000 });

  for (const mode of ["auto", "dcr"] as const) {
    it(`${mode}: a client is registered and the authorization page offered`, async function () {
      server = await startOAuthMcpServer({ metadata: { client_id_metadata_document_supported: true } });
      const started = await begin(server, mode);
      started.done.catch(() => undefined);
      assert.ok(started.authorizationUrl);
      assert.equal(server.provider.clientsStore.clients.size, 1);
    });
  }

  it("cimd: refused, saying why, and nothing registered", async function () {
    server = await startOAuthMcpServer({ metadata: { client_id_metadata_document_supported: true } });
    await assert.rejects(begin(server, "cimd"), /oauth\.clientRegistration is "cimd", but this host has no Client ID Metadata Document of its own/);
    assert.equal(server.provider.clientsStore.clients.size, 0);
  });
});

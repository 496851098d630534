import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpOAuthProvider } from "./provider";
import { mcpAuthSlot, storeTokens } from "./store";

describe("MCP OAuth provider: who stores tokens", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "mcp-provider-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const url = "https://mcp.example.com/mcp";
  const tokens = { access_token: "new", token_type: "bearer", refresh_token: "r2" };

  // A connection's tokens come only from a refresh, stored by refresh-lock.ts under the lock. The
  // SDK saves them again once the refresh's fetch returned, after the lock was let go: a sign-out
  // that took the lock in between was undone (the peers suite's sign-out race, red in CI once).
  it("a connection's provider does not write the tokens the SDK hands it back (a sign-out meanwhile stands)", () => {
    const slot = mcpAuthSlot(dir, "s", url);
    storeTokens(slot, { access_token: "old", token_type: "bearer", refresh_token: "r1" });
    const connection = new McpOAuthProvider({ slot, settings: {}, redirectUrl: "http://127.0.0.1/callback" });
    slot.remove(); // the sign-out, between the refresh's store and the SDK's saveTokens
    connection.saveTokens(tokens);
    assert.equal(slot.load().tokens, undefined);
  });

  it("a sign-in's provider stores the tokens it was granted", () => {
    const slot = mcpAuthSlot(dir, "s", url);
    const signIn = new McpOAuthProvider({ slot, settings: {}, redirectUrl: "http://127.0.0.1/callback", authorize: () => undefined });
    signIn.saveTokens(tokens);
    assert.equal(slot.load().tokens?.access_token, "new");
  });
});

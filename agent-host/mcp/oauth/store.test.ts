/**
 * mcp-auth.json as Pi keeps it: Pi's key, Pi's legacy key taken over, other servers' entries and
 * unknown fields left alone, the file the user's alone even when pi wrote it wider.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mcpAuthSlot } from "./store";

describe("mcp-auth.json", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "mcp-auth-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = () => join(dir, "mcp-auth.json");
  const url = "https://mcp.example.com/mcp";

  it("reads a sign-in pi stored under its legacy key (the URL) and moves it to Pi's current key, keeping the rest", () => {
    writeFileSync(file(), JSON.stringify({ [url]: { serverUrl: url, tokens: { access_token: "t", token_type: "bearer" }, piOnly: 1 }, "mcp__other|https://x/": { serverUrl: "https://x/" } }), { mode: 0o644 });
    const state = mcpAuthSlot(dir, "dev-radius", url).load();
    assert.equal(state.tokens?.access_token, "t");
    const stored = JSON.parse(readFileSync(file(), "utf8"));
    assert.deepEqual(Object.keys(stored).sort(), ["mcp__dev_radius|https://mcp.example.com/mcp", "mcp__other|https://x/"]);
    assert.equal(stored["mcp__dev_radius|https://mcp.example.com/mcp"].piOnly, 1);
    assert.equal(statSync(file()).mode & 0o777, 0o600, "narrowed to the user");
  });

  it("state stored for another URL under the key is not used; remove() deletes only this server's", () => {
    writeFileSync(file(), JSON.stringify({ [`mcp__a|${url}`]: { serverUrl: "https://elsewhere/mcp", tokens: { access_token: "t", token_type: "bearer" } } }));
    const slot = mcpAuthSlot(dir, "a", url);
    assert.equal(slot.load().tokens, undefined);
    slot.update((s) => ({ ...s, tokens: { access_token: "u", token_type: "bearer" } }));
    assert.equal(slot.load().tokens?.access_token, "u");
    assert.equal(mcpAuthSlot(dir, "b", url).load().tokens, undefined, "servers sharing a URL sign in separately");
    assert.equal(slot.remove(), true);
    assert.equal(slot.remove(), false);
  });

  it("a broken file is reported by name, not overwritten", () => {
    writeFileSync(file(), "{not json");
    assert.throws(() => mcpAuthSlot(dir, "a", url).load(), /mcp-auth\.json is not valid JSON/);
    assert.equal(readFileSync(file(), "utf8"), "{not json");
  });
});

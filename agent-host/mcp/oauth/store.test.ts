/**
 * mcp-auth.json as Pi keeps it: Pi's key, Pi's legacy key taken over, other servers' entries and
 * unknown fields left alone, the file the user's alone even when pi wrote it wider.
 */
import { strict as assert } from "node:assert";
import { chownSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as lockfile from "proper-lockfile";
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

  it("a symbolic link in the file's place, or another user's file, is refused by name, never read or followed", () => {
    const planted = join(dir, "planted.json");
    writeFileSync(planted, JSON.stringify({ [`mcp__s|${url}`]: { serverUrl: url, tokens: { access_token: "theirs", token_type: "bearer" } } }));
    symlinkSync(planted, file());
    assert.throws(() => mcpAuthSlot(dir, "s", url).load(), /mcp-auth\.json is a symbolic link; refused/);
    rmSync(file());
    if (process.getuid?.() !== 0) return; // chown needs root
    writeFileSync(file(), readFileSync(planted), { mode: 0o600 });
    chownSync(file(), 65534, 65534);
    assert.throws(() => mcpAuthSlot(dir, "s", url).load(), /belongs to another user \(uid 65534\); refused/);
  });

  it("reads and writes under pi's lock on the file (mcp-auth.json.lock): held elsewhere, a write waits, then gives up saying so", () => {
    writeFileSync(file(), "{}", { mode: 0o600 });
    const release = lockfile.lockSync(file());
    try {
      const started = Date.now();
      assert.throws(() => mcpAuthSlot(dir, "s", url).update((state) => ({ ...state, x: 1 })), /mcp-auth\.json is locked by another process/);
      assert.ok(Date.now() - started >= 150, "it retried before giving up");
    } finally {
      release();
    }
    mcpAuthSlot(dir, "s", url).update((state) => ({ ...state, x: 1 }));
    assert.equal(mcpAuthSlot(dir, "s", url).load().x, 1);
  });
});

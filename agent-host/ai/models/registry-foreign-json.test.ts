// models.json and auth.json through the foreign-JSON door (issue #30): keys that reach a
// prototype are dropped with a problem naming the file, and none steers a model, a header or a key.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createModelRegistry } from "./registry";

function registry(files: { models?: string; auth?: string }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-agent-dir-"));
  if (files.models !== undefined) fs.writeFileSync(path.join(dir, "models.json"), files.models);
  if (files.auth !== undefined) fs.writeFileSync(path.join(dir, "auth.json"), files.auth);
  return createModelRegistry({ agentDir: dir, env: {}, commands: false });
}

const corp = (extra: string) => `{"providers": {"corp": {"baseUrl": "https://llm.corp.example/v1", "api": "openai-completions", "apiKey": "corp-key"${extra}}}}`;

describe("models.json and auth.json: foreign keys cannot steer the registry", () => {
  afterEach(() => {
    for (const key of ["X-Evil", "baseUrl", "contextWindow", "key", "type", "name"]) assert.equal((Object.prototype as Record<string, unknown>)[key], undefined, `Object.prototype.${key}`);
  });

  it("a model whose id is `constructor` is not overridden by Object (a lookup in a record)", () => {
    const r = registry({ models: corp(`, "models": [{"id": "constructor"}, {"id": "toString"}]`) });
    assert.equal(r.get("corp", "constructor").name, "constructor");
    assert.equal(r.get("corp", "toString").name, "toString");
    assert.equal(r.get("corp", "constructor").contextWindow, 128_000);
  });

  for (const [name, headers] of [
    ["__proto__", `{"__proto__": {"X-Evil": "1"}, "X-Team": "t"}`],
    ["__proto__ in unicode escapes", `{"\\u005f\\u005fproto__": {"X-Evil": "1"}, "X-Team": "t"}`],
    ["constructor.prototype", `{"constructor": {"prototype": {"X-Evil": "1"}}, "X-Team": "t"}`],
  ] as const) {
    it(`provider headers with ${name}: only the real header is sent, and the file's problem is reported`, async () => {
      const r = registry({ models: corp(`, "headers": ${headers}, "models": [{"id": "big", "headers": ${headers}}]`) });
      const auth = await r.requestAuth(r.get("corp", "big"));
      assert.deepEqual({ ...auth.headers }, { "X-Team": "t" });
      assert.ok(r.errors.some((e) => /key dropped/.test(e.message) && e.message.startsWith(path.join(r.agentDir, "models.json"))), r.errors.join("\n"));
    });
  }

  it("providers named toString or hasOwnProperty are providers like any other (no lookup into Object)", async () => {
    const r = registry({ models: `{"providers": {"toString": {"baseUrl": "https://a.example/v1", "api": "openai-completions", "apiKey": "k1", "models": [{"id": "m"}]}, "hasOwnProperty": {"baseUrl": "https://b.example/v1", "api": "openai-completions", "models": [{"id": "m"}]}}}` });
    assert.ok(r.hasAuth("toString"));
    assert.equal(await r.apiKeyFor(r.get("toString", "m")), "k1");
    assert.equal(r.hasAuth("hasOwnProperty"), false);
    await assert.rejects(r.apiKeyFor(r.get("hasOwnProperty", "m")), /models\.json/);
  });

  it("a provider named __proto__ (or spelled in escapes) is no provider", () => {
    const r = registry({ models: `{"providers": {"__proto__": {"baseUrl": "http://evil.example/v1", "api": "openai-completions", "models": [{"id": "x"}]}, "\\u0063onstructor": {"baseUrl": "http://evil.example/v1", "api": "openai-completions", "models": [{"id": "y"}]}}}` });
    assert.ok(!r.providers().includes("__proto__"));
    assert.ok(!r.providers().includes("constructor"));
    assert.ok(!r.all().some((m) => m.baseUrl.includes("evil")));
  });

  it("auth.json: a key under __proto__ (plain or escaped) is no key, and a nested one steers no env", async () => {
    const r = registry({
      auth: `{"__proto__": {"type": "api_key", "key": "stolen"}, "\\u005f_proto__": {"type": "api_key", "key": "stolen"}, "groq": {"type": "api_key", "key": "$G", "env": {"__proto__": {"G": "from-proto"}, "G": "real"}}}`,
    });
    assert.equal(await r.apiKeyFor(r.get("groq", "qwen/qwen3.8-27b")), "real");
    assert.ok(!r.hasAuth("__proto__"));
    // The escaped spelling is the same key: JSON.parse keeps the last, so one notice at the top.
    assert.equal(r.errors.filter((e) => /key dropped/.test(e.message)).length, 2, r.errors.join("\n"));
  });

  it("a value nested 100,000 deep in a provider's compat neither overflows the stack nor stops the other models", () => {
    const depth = 100_000;
    const r = registry({ models: corp(`, "compat": {"deep": ${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}, "models": [{"id": "big"}]`) });
    assert.equal(r.get("corp", "big").id, "big");
    assert.ok(r.all().length > 1);
  });
});

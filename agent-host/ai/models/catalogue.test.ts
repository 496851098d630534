import { strict as assert } from "node:assert";
import { knownApis } from "../types";
import { applyCost, emptyUsage } from "../usage";
import { builtinModels, builtinProviders } from "./catalogue";

describe("built-in catalogue", () => {
  it("keeps to a current subset of the providers we need", () => {
    assert.ok(builtinModels.length >= 40 && builtinModels.length <= 60, `${builtinModels.length} models`);
    for (const provider of ["anthropic", "openai", "google", "groq", "openrouter", "xai", "mistral", "cerebras"]) {
      assert.ok(builtinProviders.includes(provider), provider);
    }
  });

  it("every model is complete and sane", () => {
    const seen = new Set<string>();
    for (const m of builtinModels) {
      const key = `${m.provider}/${m.id}`;
      assert.ok(!seen.has(key), `duplicate ${key}`);
      seen.add(key);
      assert.ok(m.id && m.name, key);
      assert.ok(knownApis.includes(m.api) && m.api !== "faux", `${key}: api ${m.api}`);
      assert.match(m.baseUrl, /^https:\/\/[^/]+/, key);
      assert.equal(typeof m.reasoning, "boolean", key);
      assert.ok(m.input.includes("text"), key);
      assert.ok(Number.isInteger(m.contextWindow) && m.contextWindow > 0, `${key}: contextWindow`);
      assert.ok(Number.isInteger(m.maxTokens) && m.maxTokens > 0, `${key}: maxTokens`);
      assert.ok(m.maxTokens <= m.contextWindow, `${key}: maxTokens ≤ contextWindow`);
      for (const price of Object.values(m.cost)) assert.ok(Number.isFinite(price) && price >= 0, `${key}: cost`);
    }
  });

  it("uses each provider's API and endpoint", () => {
    const apis = (provider: string) => new Set(builtinModels.filter((m) => m.provider === provider).map((m) => `${m.api} ${m.baseUrl}`));
    assert.deepEqual([...apis("anthropic")], ["anthropic-messages https://api.anthropic.com"]);
    assert.deepEqual([...apis("openai")], ["openai-responses https://api.openai.com/v1"]);
    assert.deepEqual([...apis("google")], ["google-generative-ai https://generativelanguage.googleapis.com/v1beta"]);
    assert.deepEqual([...apis("groq")], ["openai-completions https://api.groq.com/openai/v1"]);
    assert.deepEqual([...apis("openrouter")], ["openai-completions https://openrouter.ai/api/v1"]);
    assert.deepEqual([...apis("mistral")], ["openai-completions https://api.mistral.ai/v1"]);
  });

  it("is immutable", () => {
    const m = builtinModels[0];
    assert.ok(Object.isFrozen(builtinModels) && Object.isFrozen(m) && Object.isFrozen(m.cost));
    assert.throws(() => {
      (m as { maxTokens: number }).maxTokens = 1;
    }, TypeError);
  });

  it("prices usage with usage.ts ($ per million tokens)", () => {
    const sonnet = builtinModels.find((m) => m.provider === "anthropic" && m.id === "claude-sonnet-4-5");
    assert.ok(sonnet);
    assert.deepEqual({ ...sonnet.cost }, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    const usage = emptyUsage();
    Object.assign(usage, { input: 2000, output: 1000, cacheRead: 10_000, cacheWrite: 500 });
    applyCost(sonnet, usage);
    const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);
    close(usage.cost.input, 0.006);
    close(usage.cost.output, 0.015);
    close(usage.cost.cacheRead, 0.003);
    close(usage.cost.cacheWrite, 0.001875);
    close(usage.cost.total, 0.025875);
    assert.equal(usage.totalTokens, 13_500);
  });
});

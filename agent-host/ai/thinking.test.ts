import { strict as assert } from "node:assert";
import { builtinModels } from "./models/catalogue";
import { availableThinkingLevels, clampThinkingLevel, isThinkingLevel, providerThinkingValue, thinkingLevels } from "./thinking";
import type { Model } from "./types";

const model = (provider: string, id: string): Model => {
  const found = builtinModels.find((m) => m.provider === provider && m.id === id);
  assert.ok(found, `${provider}/${id} is in the catalogue`);
  return found;
};

describe("thinking levels", () => {
  it("a model without reasoning has only off, whatever its map says", () => {
    assert.deepEqual(availableThinkingLevels(model("openai", "gpt-4o")), ["off"]);
    assert.deepEqual(availableThinkingLevels({ reasoning: false, thinkingLevelMap: { xhigh: "xhigh" } }), ["off"]);
  });

  it("a reasoning model without a map has off … high, never xhigh or max", () => {
    assert.deepEqual(availableThinkingLevels(model("anthropic", "claude-sonnet-4-5")), ["off", "minimal", "low", "medium", "high"]);
  });

  it("xhigh and max only where the map names them", () => {
    assert.deepEqual(availableThinkingLevels(model("anthropic", "claude-opus-4-8")), thinkingLevels);
    assert.deepEqual(availableThinkingLevels(model("anthropic", "claude-sonnet-4-6")), ["off", "minimal", "low", "medium", "high", "max"]);
    assert.deepEqual(availableThinkingLevels(model("openai", "gpt-5.4")), ["off", "low", "medium", "high", "xhigh"]);
  });

  it("a level mapped to null is not offered, including off", () => {
    assert.deepEqual(availableThinkingLevels(model("anthropic", "claude-fable-5")), ["minimal", "low", "medium", "high", "xhigh", "max"]);
    assert.deepEqual(availableThinkingLevels(model("openai", "gpt-5-mini")), ["minimal", "low", "medium", "high"]);
  });

  it("clamps to the level itself, else the next stronger, else the next weaker", () => {
    assert.equal(clampThinkingLevel("high", model("openai", "gpt-5.4")), "high");
    assert.equal(clampThinkingLevel("minimal", model("openai", "gpt-5.4")), "low");
    assert.equal(clampThinkingLevel("xhigh", model("anthropic", "claude-sonnet-4-6")), "max");
    assert.equal(clampThinkingLevel("max", model("openai", "gpt-5-mini")), "high");
    assert.equal(clampThinkingLevel("off", model("anthropic", "claude-fable-5")), "minimal");
    assert.equal(clampThinkingLevel("high", model("openai", "gpt-4o")), "off");
    assert.equal(clampThinkingLevel("max", model("anthropic", "claude-haiku-4-5")), "high");
  });

  it("every catalogue model clamps every level to one of its own levels", () => {
    for (const m of builtinModels) {
      const levels = availableThinkingLevels(m);
      assert.ok(levels.length > 0, `${m.provider}/${m.id} has levels`);
      for (const level of thinkingLevels) assert.ok(levels.includes(clampThinkingLevel(level, m)), `${m.provider}/${m.id} ${level}`);
    }
  });

  it("spells a level the way the model's API does", () => {
    assert.equal(providerThinkingValue(model("openai", "gpt-5.4"), "off"), "none");
    assert.equal(providerThinkingValue(model("openai", "gpt-5.4"), "high"), "high");
    assert.equal(providerThinkingValue(model("openai", "gpt-5.4"), "minimal"), undefined);
    assert.equal(providerThinkingValue(model("anthropic", "claude-sonnet-4-5"), "medium"), "medium");
  });

  it("recognises level names", () => {
    assert.ok(isThinkingLevel("xhigh"));
    assert.ok(!isThinkingLevel("turbo"));
    assert.ok(!isThinkingLevel(3));
  });
});

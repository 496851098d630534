import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { builtinModels } from "./catalogue";
import { applyProviderConfig, ConfigError, loadModelsJson, stripJsonExtras } from "./models-json";

function tempFile(content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-models-json-"));
  const file = path.join(dir, "models.json");
  fs.writeFileSync(file, content);
  return file;
}

const builtinsOf = (provider: string) => builtinModels.filter((m) => m.provider === provider);

describe("models.json", () => {
  it("a missing or empty file is no error", () => {
    const missing = loadModelsJson(path.join(os.tmpdir(), "no-such-dir-pi", "models.json"));
    assert.deepEqual([missing.providers.size, missing.errors.length], [0, 0]);
    const empty = loadModelsJson(tempFile("  \n"));
    assert.deepEqual([empty.providers.size, empty.errors.length], [0, 0]);
  });

  it("loads a custom provider and fills in pi's defaults", () => {
    const file = tempFile(`\ufeff{
      // local models
      "providers": {
        "ollama": {
          "baseUrl": "http://localhost:11434/v1",
          "api": "openai-completions",
          "apiKey": "ollama", /* dummy */
          "models": [
            { "id": "qwen2.5-coder:7b" },
            { "id": "llava", "name": "LLaVA", "input": ["text", "image"], "reasoning": true, "contextWindow": 32000, "maxTokens": 4096,
              "cost": { "input": 0.1, "output": 0.2, "cacheRead": 0, "cacheWrite": 0 }, "compat": { "supportsDeveloperRole": false } },
          ],
        },
      },
    }`);
    const json = loadModelsJson(file);
    assert.deepEqual(json.errors, []);
    const errors: ConfigError[] = [];
    const models = applyProviderConfig("ollama", [], json.providers.get("ollama"), file, errors);
    assert.deepEqual(errors, []);
    assert.deepEqual(models[0], {
      id: "qwen2.5-coder:7b",
      name: "qwen2.5-coder:7b",
      api: "openai-completions",
      provider: "ollama",
      baseUrl: "http://localhost:11434/v1",
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 128_000,
      maxTokens: 16_384,
    });
    assert.equal(models[1].name, "LLaVA");
    assert.deepEqual(models[1].input, ["text", "image"]);
    assert.deepEqual([models[1].reasoning, models[1].contextWindow, models[1].maxTokens, models[1].cost.output], [true, 32_000, 4096, 0.2]);
    assert.deepEqual(models[1].compat, { supportsDeveloperRole: false });
  });

  it("overrides a built-in provider: baseUrl and compat for all its models, per-model patches, added and replaced models", () => {
    const file = tempFile(
      JSON.stringify({
        providers: {
          anthropic: {
            baseUrl: "https://proxy.example.com/anthropic",
            compat: { supportsLongCacheRetention: false },
            headers: { "x-team": "$TEAM" },
            modelOverrides: {
              "claude-sonnet-4-5": { name: "Sonnet via proxy", maxTokens: 32_000, cost: { input: 2 }, thinkingLevelMap: { max: "max" } },
              "claude-unknown": { name: "ignored" },
            },
            models: [
              { id: "claude-haiku-4-5", contextWindow: 100_000 },
              { id: "claude-internal", name: "Internal" },
            ],
          },
        },
      }),
    );
    const json = loadModelsJson(file);
    assert.deepEqual(json.errors, []);
    const errors: ConfigError[] = [];
    const base = builtinsOf("anthropic");
    const models = applyProviderConfig("anthropic", base, json.providers.get("anthropic"), file, errors);
    assert.deepEqual(errors, []);
    assert.equal(models.length, base.length + 1, "one model added, one replaced, unknown override ignored");
    assert.ok(models.every((m) => m.baseUrl === "https://proxy.example.com/anthropic"));
    const opus = models.find((m) => m.id === "claude-opus-4-8");
    assert.equal(opus?.compat?.supportsLongCacheRetention, false);
    assert.equal(opus?.compat?.forceAdaptiveThinking, true, "built-in compat kept under the override");
    const sonnet = models.find((m) => m.id === "claude-sonnet-4-5");
    assert.deepEqual([sonnet?.name, sonnet?.maxTokens, sonnet?.contextWindow], ["Sonnet via proxy", 32_000, 1_000_000]);
    assert.deepEqual(sonnet?.cost, { input: 2, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    assert.deepEqual(sonnet?.thinkingLevelMap, { max: "max" });
    const haiku = models.find((m) => m.id === "claude-haiku-4-5");
    assert.deepEqual([haiku?.name, haiku?.contextWindow, haiku?.api], ["claude-haiku-4-5", 100_000, "anthropic-messages"], "a models entry replaces the built-in one");
    const internal = models.find((m) => m.id === "claude-internal");
    assert.deepEqual([internal?.api, internal?.baseUrl], ["anthropic-messages", "https://proxy.example.com/anthropic"], "api and baseUrl from the provider");
    assert.ok(Object.isFrozen(base[0]) && base[0].baseUrl === "https://api.anthropic.com", "built-ins untouched");
  });

  it("invalid JSON: names the file and the line, loads nothing", () => {
    const file = tempFile('{\n  "providers": {\n    "x": { "baseUrl": "http://a" \n  }\n}');
    const json = loadModelsJson(file);
    assert.equal(json.providers.size, 0);
    assert.equal(json.errors.length, 1);
    assert.ok(json.errors[0] instanceof ConfigError);
    assert.ok(json.errors[0].message.startsWith(`${file}: invalid JSON (line 5, column`), json.errors[0].message);
  });

  it("wrong types: names the path inside the file and keeps the valid providers", () => {
    const file = tempFile(
      JSON.stringify({
        providers: {
          good: { baseUrl: "http://127.0.0.1:8000/v1", api: "openai-completions", models: [{ id: "m" }] },
          bad: { baseUrl: "http://h/v1", api: "openai-completions", models: [{ id: "m", contextWindow: "big", input: ["text", "audio"] }] },
          "worse/one": { headers: { a: 1 } },
          format: { compat: { thinkingFormat: "klingon" } },
        },
      }),
    );
    const json = loadModelsJson(file);
    assert.deepEqual([...json.providers.keys()], ["good"]);
    const messages = json.errors.map((e) => e.message);
    assert.ok(messages.includes(`${file}: providers.bad.models[0].contextWindow: must be number`), messages.join("\n"));
    assert.ok(messages.some((m) => m.startsWith(`${file}: providers.bad.models[0].input[1]: must be one of "text", "image"`)), messages.join("\n"));
    assert.ok(messages.includes(`${file}: providers["worse/one"].headers.a: must be string`), messages.join("\n"));
    assert.ok(messages.some((m) => m.startsWith(`${file}: providers.format.compat.thinkingFormat: must be one of "openai"`)), messages.join("\n"));
    assert.deepEqual(json.errors.map((e) => e.where).sort(), ["providers.bad.models[0].contextWindow", "providers.bad.models[0].input[1]", "providers.format.compat.thinkingFormat", 'providers["worse/one"].headers.a']);
    assert.ok(messages.includes(`${file}: providers.bad.models[0].input[1]: must be one of "text", "image"`), messages.join("\n"));
  });

  it("unknown api: on a provider skips it, on a model skips the model", () => {
    const file = tempFile(
      JSON.stringify({
        providers: {
          mistralish: { baseUrl: "https://m/v1", api: "mistral-conversations", models: [{ id: "a" }] },
          mixed: { baseUrl: "https://x/v1", api: "openai-completions", models: [{ id: "ok" }, { id: "odd", api: "bedrock-converse-stream" }] },
        },
      }),
    );
    const json = loadModelsJson(file);
    assert.deepEqual([...json.providers.keys()], ["mixed"]);
    assert.match(json.errors[0].message, /: providers\.mistralish\.api: unknown api "mistral-conversations" \(supported: openai-completions, openai-responses, anthropic-messages, google-generative-ai\)$/);
    const errors: ConfigError[] = [];
    const models = applyProviderConfig("mixed", [], json.providers.get("mixed"), file, errors);
    assert.deepEqual(models.map((m) => m.id), ["ok"]);
    assert.equal(errors[0].message, `${file}: providers.mixed.models[1]: unknown api "bedrock-converse-stream" (supported: openai-completions, openai-responses, anthropic-messages, google-generative-ai)`);
  });

  it("semantic problems: no baseUrl or api for a custom model, non-positive limits, an empty provider, OAuth", () => {
    const file = tempFile(
      JSON.stringify({
        providers: {
          nobase: { api: "openai-completions", models: [{ id: "a" }] },
          noapi: { baseUrl: "http://h", models: [{ id: "a" }] },
          zero: { baseUrl: "http://h", api: "openai-completions", models: [{ id: "a", maxTokens: 0 }] },
          empty: {},
          radius: { oauth: "radius", baseUrl: "https://r" },
        },
      }),
    );
    const json = loadModelsJson(file);
    const errors: ConfigError[] = [...json.errors];
    for (const [id, config] of json.providers) applyProviderConfig(id, [], config, file, errors);
    const text = errors.map((e) => `${e.where}: ${e.problem}`);
    assert.deepEqual(text.sort(), [
      'providers.empty: must specify "baseUrl", "headers", "compat", "apiKey", "modelOverrides" or "models"',
      'providers.noapi.models[0]: no "api": set it on the provider or the model',
      'providers.nobase.models[0]: no "baseUrl": set it on the provider or the model',
      'providers.radius.oauth: OAuth providers ("radius") are not supported by this agent host',
      "providers.zero.models[0]: maxTokens must be positive",
    ]);
  });

  it("a file without providers, or not an object", () => {
    const a = loadModelsJson(tempFile('{"provider": {}}'));
    assert.deepEqual(a.errors.map((e) => `${e.where}: ${e.problem}`), ["providers: is required"]);
    const b = loadModelsJson(tempFile("[1, 2]"));
    assert.match(b.errors[0].message, /models\.json: must be a JSON object with "providers"$/);
  });

  it("comments and trailing commas are removed without touching strings or offsets", () => {
    const text = '{"a": "x // not a comment, ]", /* c */ "b": [1, 2,],}';
    const stripped = stripJsonExtras(text);
    assert.equal(stripped.length, text.length);
    assert.deepEqual(JSON.parse(stripped), { a: "x // not a comment, ]", b: [1, 2] });
  });
});

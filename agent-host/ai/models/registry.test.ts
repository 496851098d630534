import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { builtinModels } from "./catalogue";
import { createModelRegistry, defaultAgentDir, isLocalBaseUrl, ModelRegistryError, type ModelRegistryOptions } from "./registry";

function agentDir(files: { models?: unknown; auth?: unknown } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-agent-dir-"));
  const write = (name: string, value: unknown) => fs.writeFileSync(path.join(dir, name), typeof value === "string" ? value : JSON.stringify(value, null, 2));
  if (files.models !== undefined) write("models.json", files.models);
  if (files.auth !== undefined) write("auth.json", files.auth);
  return dir;
}

const registry = (files: { models?: unknown; auth?: unknown } = {}, options: ModelRegistryOptions = {}) =>
  createModelRegistry({ agentDir: agentDir(files), env: {}, ...options });

const local = {
  providers: {
    ollama: { baseUrl: "http://localhost:11434/v1", api: "openai-completions", models: [{ id: "qwen2.5-coder:7b" }, { id: "gpt-4o" }] },
  },
};

async function rejectsWith(promise: Promise<unknown>, code: string, message: string | RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ModelRegistryError, String(error));
    assert.equal(error.code, code);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

function throwsWith(fn: () => unknown, code: string, message: string | RegExp) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ModelRegistryError, String(error));
    assert.equal(error.code, code);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

describe("model registry", () => {
  it("finds pi's agent directory like pi does", () => {
    assert.equal(defaultAgentDir({ PI_CODING_AGENT_DIR: "/opt/pi" }), "/opt/pi");
    assert.equal(defaultAgentDir({ PI_CODING_AGENT_DIR: "~/custom" }), path.join(os.homedir(), "custom"));
    assert.equal(defaultAgentDir({}), path.join(os.homedir(), ".pi", "agent"));
    const dir = agentDir({ models: local });
    const r = createModelRegistry({ env: { PI_CODING_AGENT_DIR: dir } });
    assert.equal(r.modelsJsonPath, path.join(dir, "models.json"));
    assert.ok(r.find("ollama", "gpt-4o"));
  });

  it("without files it has exactly the built-ins", () => {
    const r = registry();
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.all(), [...builtinModels]);
    assert.deepEqual(r.available(), [], "no keys, no local models");
    assert.equal(r.find("anthropic", "claude-opus-4-8")?.name, "Claude Opus 4.8");
    assert.equal(r.find("Anthropic", "CLAUDE-OPUS-4-8")?.id, "claude-opus-4-8");
  });

  it("a bad models.json is reported with its path and the built-ins keep working", () => {
    const r = registry({ models: '{ "providers": { "x": ' }, { env: { OPENAI_API_KEY: "sk" } });
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0].message, new RegExp(`^${r.modelsJsonPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: invalid JSON`));
    assert.equal(r.all().length, builtinModels.length);
    assert.ok(r.available().some((m) => m.id === "gpt-5.5"));
  });

  it("available: providers with a key, plus models on this machine", () => {
    const r = registry({ models: local }, { env: { ANTHROPIC_API_KEY: "sk-ant" } });
    const providers = new Set(r.available().map((m) => m.provider));
    assert.deepEqual([...providers], ["anthropic", "ollama"]);
    assert.ok(isLocalBaseUrl("http://127.0.0.1:8080/v1") && isLocalBaseUrl("http://[::1]:1234") && isLocalBaseUrl("http://foo.localhost/v1"));
    assert.ok(!isLocalBaseUrl("https://api.openai.com/v1") && !isLocalBaseUrl("http://192.168.1.5/v1") && !isLocalBaseUrl("not a url"));
  });

  it("keys from the provider's environment variables", async () => {
    const r = registry({}, { env: { GROQ_API_KEY: "gsk", GEMINI_API_KEY: "gem", XAI_API_KEY: "xai", MISTRAL_API_KEY: "mis", OPENROUTER_API_KEY: "or" } });
    assert.equal(await r.apiKeyFor(r.get("groq", "openai/gpt-oss-120b")), "gsk");
    assert.equal(await r.apiKeyFor(r.get("google", "gemini-2.5-pro")), "gem");
    assert.equal(await r.apiKeyFor(r.get("xai", "grok-4.7")), "xai");
    assert.equal(await r.apiKeyFor(r.get("mistral", "devstral-medium-latest")), "mis");
    assert.equal(await r.apiKeyFor(r.get("openrouter", "z-ai/glm-5.3")), "or");
    assert.ok(r.hasAuth("groq") && !r.hasAuth("openai"));
  });

  it("a missing key is a clear error", async () => {
    const r = registry({ models: { providers: { corp: { baseUrl: "https://llm.corp.example/v1", api: "openai-completions", models: [{ id: "big" }] } } } });
    await rejectsWith(r.apiKeyFor(r.get("groq", "llama-3.3-70b-versatile")), "no_api_key", "No API key for provider groq: set GROQ_API_KEY or apiKey in models.json");
    await rejectsWith(r.apiKeyFor(r.get("anthropic", "claude-sonnet-5")), "no_api_key", "No API key for provider anthropic: set ANTHROPIC_API_KEY or apiKey in models.json");
    await rejectsWith(r.apiKeyFor(r.get("corp", "big")), "no_api_key", /^No API key for provider corp: set apiKey for it in models\.json/);
    assert.equal(r.available().length, 0);
  });

  it("a local model needs no key", async () => {
    const r = registry({ models: local });
    assert.equal(await r.apiKeyFor(r.get("ollama", "gpt-4o")), undefined);
    assert.deepEqual(await r.requestAuth(r.get("ollama", "gpt-4o")), {});
  });

  it("apiKey in models.json: literal, $VAR, !command; it wins over the environment", async () => {
    const models = {
      providers: {
        openai: { apiKey: "sk-from-models-json" },
        groq: { apiKey: "$MY_GROQ" },
        xai: { apiKey: "!printf xai-from-command" },
        corp: { baseUrl: "https://llm.corp.example/v1", api: "openai-completions", apiKey: "${CORP_TOKEN}", models: [{ id: "big" }] },
      },
    };
    const r = registry({ models }, { env: { OPENAI_API_KEY: "sk-env", MY_GROQ: "gsk-templated", CORP_TOKEN: "corp-secret" } });
    assert.deepEqual(r.errors, []);
    assert.equal(await r.apiKeyFor(r.get("openai", "gpt-5.5")), "sk-from-models-json");
    assert.equal(await r.apiKeyFor(r.get("groq", "llama-3.3-70b-versatile")), "gsk-templated");
    assert.equal(await r.apiKeyFor(r.get("xai", "grok-4.7")), "xai-from-command");
    assert.equal(await r.apiKeyFor(r.get("corp", "big")), "corp-secret");
    assert.ok(r.available().some((m) => m.provider === "corp"));

    const missing = registry({ models }, { env: {} });
    assert.ok(!missing.hasAuth("groq"), "a $VAR that is not set is no key");
    await rejectsWith(missing.apiKeyFor(missing.get("groq", "llama-3.3-70b-versatile")), "api_key_failed", 'Failed to resolve API key for provider "groq" (models.json) from environment variable: MY_GROQ');
    const noCommands = registry({ models }, { commands: false });
    await rejectsWith(noCommands.apiKeyFor(noCommands.get("xai", "grok-4.7")), "api_key_failed", /running commands \("!printf xai-from-command"\) is disabled/);
  });

  it("precedence: runtime key, then auth.json, then models.json, then the environment", async () => {
    let runs = 0;
    const commands = async (command: string) => {
      runs++;
      return command === "get-key" ? `cmd-key-${runs}` : undefined;
    };
    const files = {
      models: { providers: { anthropic: { apiKey: "from-models-json" }, openai: { apiKey: "from-models-json" } } },
      auth: { anthropic: { type: "api_key", key: "!get-key" }, google: { type: "oauth", access: "x", refresh: "y", expires: 0 }, groq: { type: "api_key", key: "$G", env: { G: "from-auth-env" } } },
    };
    const r = registry(files, { env: { ANTHROPIC_API_KEY: "from-env", OPENAI_API_KEY: "from-env" }, apiKeys: { openai: "from-runtime" }, commands });
    assert.equal(await r.apiKeyFor(r.get("openai", "gpt-5.5")), "from-runtime");
    assert.equal(await r.apiKeyFor(r.get("anthropic", "claude-opus-4-8")), "cmd-key-1");
    assert.equal(await r.apiKeyFor(r.get("anthropic", "claude-sonnet-5")), "cmd-key-1", "auth.json commands run once");
    assert.equal(runs, 1);
    assert.equal(await r.apiKeyFor(r.get("groq", "qwen/qwen3.8-27b")), "from-auth-env", "an auth.json entry's env is used for it");
    assert.ok(!r.hasAuth("google"), "OAuth credentials are not usable here");
    r.reload();
    assert.equal(await r.apiKeyFor(r.get("anthropic", "claude-opus-4-8")), "cmd-key-2", "reload forgets cached command output");
  });

  it("a bad auth.json is reported and ignored", () => {
    const r = registry({ auth: "{ not json" }, { env: { GROQ_API_KEY: "g" } });
    assert.equal(r.errors.length, 1);
    assert.ok(r.errors[0].message.startsWith(path.join(r.agentDir, "auth.json")));
    assert.ok(r.hasAuth("groq"));
  });

  it("requestAuth resolves configured headers and authHeader", async () => {
    const models = {
      providers: {
        corp: {
          baseUrl: "https://llm.corp.example/v1",
          api: "openai-completions",
          apiKey: "corp-key",
          authHeader: true,
          headers: { "X-Team": "${TEAM}", "X-Static": "static" },
          models: [{ id: "big", headers: { "X-Model": "big" } }, { id: "small" }],
          modelOverrides: { big: { headers: { "X-Static": "overridden" } } },
        },
      },
    };
    const r = registry({ models }, { env: { TEAM: "blue" } });
    assert.deepEqual(await r.requestAuth(r.get("corp", "big")), {
      apiKey: "corp-key",
      headers: { "X-Team": "blue", "X-Static": "overridden", "X-Model": "big", Authorization: "Bearer corp-key" },
    });
    assert.deepEqual((await r.requestAuth(r.get("corp", "small"))).headers, { "X-Team": "blue", "X-Static": "static", Authorization: "Bearer corp-key" });
    assert.equal(r.get("corp", "big").headers, undefined, "resolved headers never sit on the model");
    const noTeam = registry({ models }, { env: {} });
    await rejectsWith(noTeam.requestAuth(noTeam.get("corp", "big")), "api_key_failed", 'Failed to resolve header "X-Team" for corp/big from environment variable: TEAM');
  });

  it("get: unknown provider and unknown model are distinct errors", () => {
    const r = registry();
    throwsWith(() => r.get("nope", "x"), "unknown_provider", /^Unknown provider "nope" \(known: anthropic, openai, google/);
    throwsWith(() => r.get("anthropic", "claude-9"), "unknown_model", "Model not found: anthropic/claude-9");
  });

  it("models are read-only", () => {
    const r = registry({ models: local });
    assert.throws(() => {
      (r.get("ollama", "gpt-4o") as { maxTokens: number }).maxTokens = 1;
    }, TypeError);
  });

  it("reload picks up a changed models.json", () => {
    const r = registry();
    assert.equal(r.find("ollama", "gpt-4o"), undefined);
    fs.writeFileSync(r.modelsJsonPath, JSON.stringify(local));
    r.reload();
    assert.ok(r.find("ollama", "gpt-4o"));
    assert.deepEqual(r.providers().slice(-1), ["ollama"]);
  });
});

describe("model patterns (--model)", () => {
  const r = registry({ models: local });

  const resolved = (pattern: string, options?: Parameters<typeof r.resolve>[1]) => {
    const { model, thinkingLevel, warning } = r.resolve(pattern, options);
    return [`${model.provider}/${model.id}`, thinkingLevel, warning];
  };

  it("an exact id, or provider/id", () => {
    assert.deepEqual(resolved("claude-opus-4-8"), ["anthropic/claude-opus-4-8", undefined, undefined]);
    assert.deepEqual(resolved("anthropic/claude-opus-4-8"), ["anthropic/claude-opus-4-8", undefined, undefined]);
    assert.deepEqual(resolved("GPT-5.5"), ["openai/gpt-5.5", undefined, undefined]);
    assert.deepEqual(resolved("claude-sonnet-4-5", { provider: "anthropic" }), ["anthropic/claude-sonnet-4-5", undefined, undefined]);
    assert.deepEqual(resolved("anthropic/claude-sonnet-4-5", { provider: "anthropic" }), ["anthropic/claude-sonnet-4-5", undefined, undefined]);
  });

  it("a thinking level after the last colon", () => {
    assert.deepEqual(resolved("anthropic/claude-opus-4-8:high"), ["anthropic/claude-opus-4-8", "high", undefined]);
    assert.deepEqual(resolved("gpt-5.5:xhigh"), ["openai/gpt-5.5", "xhigh", undefined]);
    assert.deepEqual(resolved("sonnet:max"), ["anthropic/claude-sonnet-5", "max", undefined]);
  });

  it("ids containing colons win over a thinking suffix", () => {
    assert.deepEqual(resolved("ollama/qwen2.5-coder:7b"), ["ollama/qwen2.5-coder:7b", undefined, undefined]);
    assert.deepEqual(resolved("qwen2.5-coder:7b:low"), ["ollama/qwen2.5-coder:7b", "low", undefined]);
  });

  it("an invalid thinking suffix does not match", () => {
    throwsWith(() => r.resolve("claude-opus-4-8:turbo"), "unknown_model", 'Unknown model "claude-opus-4-8:turbo"');
  });

  it("fuzzy: a part of the id or name, preferring aliases and the highest id", () => {
    assert.deepEqual(resolved("sonnet"), ["anthropic/claude-sonnet-5", undefined, undefined]);
    assert.deepEqual(resolved("opus"), ["anthropic/claude-opus-5-5", undefined, undefined]);
    assert.deepEqual(resolved("anthropic/haiku"), ["anthropic/claude-haiku-4-5", undefined, undefined]);
    assert.deepEqual(resolved("Kimi K2"), ["openrouter/moonshotai/kimi-k2.6", undefined, undefined]);
    const dated = createModelRegistry({
      agentDir: agentDir({ models: { providers: { anthropic: { models: [{ id: "claude-opus-4-5-20251101" }, { id: "claude-opus-4-1-20250805" }] } } } }),
      env: {},
    });
    assert.equal(dated.resolve("anthropic/20251101").model.id, "claude-opus-4-5-20251101", "a dated id when only dated ids match");
  });

  it("provider/id picks the provider; ids with slashes still resolve", () => {
    assert.deepEqual(resolved("openai/gpt-6-sol"), ["openai/gpt-6-sol", undefined, undefined]);
    assert.deepEqual(resolved("openrouter/openai/gpt-6-sol"), ["openrouter/openai/gpt-6-sol", undefined, undefined]);
    assert.deepEqual(resolved("openai/gpt-oss-120b"), ["groq/openai/gpt-oss-120b", undefined, undefined], "no such openai model: the whole text is a groq id");
    assert.deepEqual(resolved("moonshotai/kimi-k2.6:high"), ["openrouter/moonshotai/kimi-k2.6", "high", undefined]);
  });

  it("the same id on several providers: the usable one, else an error", () => {
    assert.deepEqual(resolved("gpt-4o"), ["ollama/gpt-4o", undefined, undefined], "the local one: no OpenAI key");
    const both = registry({ models: local }, { env: { OPENAI_API_KEY: "sk" } });
    throwsWith(() => both.resolve("gpt-4o"), "ambiguous_model", 'Model "gpt-4o" is ambiguous: ollama/gpt-4o, openai/gpt-4o (several of them are usable); use provider/id');
    assert.equal(both.resolve("openai/gpt-4o").model.provider, "openai");
    const remote = { providers: { corp: { baseUrl: "https://c/v1", api: "openai-completions", models: [{ id: "gpt-4o" }] } } };
    assert.equal(registry({ models: remote }, { env: { OPENAI_API_KEY: "sk" } }).resolve("gpt-4o").model.provider, "openai");
    throwsWith(() => registry({ models: remote }).resolve("gpt-4o"), "ambiguous_model", /: corp\/gpt-4o, openai\/gpt-4o \(none of them has credentials\)/);
  });

  it("unknown provider or model: clear errors", () => {
    throwsWith(() => r.resolve("x", { provider: "nope" }), "unknown_provider", /^Unknown provider "nope" \(known: anthropic, openai/);
    throwsWith(() => r.resolve("anthropic/claude-9"), "unknown_model", /^Unknown model "claude-9" for provider "anthropic" \(its models: claude-fable-5-1, /);
    throwsWith(() => r.resolve("acme/rocket"), "unknown_model", /^Unknown model "acme\/rocket"; there is no provider "acme" \(known: anthropic, /);
    throwsWith(() => r.resolve("zzz-nothing"), "unknown_model", 'Unknown model "zzz-nothing"');
    throwsWith(() => r.resolve("  "), "unknown_model", "No model given");
  });

  it("allowUnknownId accepts a new id on a known provider, with a warning", () => {
    const { model, thinkingLevel, warning } = r.resolve("anthropic/claude-next:high", { allowUnknownId: true });
    assert.deepEqual([model.provider, model.id, model.name, model.api, model.reasoning, thinkingLevel], ["anthropic", "claude-next", "claude-next", "anthropic-messages", true, "high"]);
    assert.equal(warning, 'Model "claude-next" not found for provider "anthropic": using it as a custom model id');
  });
});

import { strict as assert } from "node:assert";
import {
  configValueEnvNames,
  envApiKey,
  isValueConfigured,
  missingKeyHint,
  resolveConfigValue,
  resolveStaticValue,
  shellCommandRunner,
} from "./api-keys";

describe("API key values", () => {
  const env = { FOO: "foo-value", BAR: "bar", MY_API_KEY: "from-env" };

  it("reads $NAME and ${NAME} anywhere in the value", async () => {
    assert.equal(await resolveConfigValue("$FOO", env, "key"), "foo-value");
    assert.equal(await resolveConfigValue("Bearer ${FOO}-${BAR}", env, "key"), "Bearer foo-value-bar");
    assert.deepEqual(configValueEnvNames("${FOO}$BAR$FOO"), ["FOO", "BAR"]);
  });

  it("keeps literals, with $$ and $! as escapes", async () => {
    assert.equal(await resolveConfigValue("sk-literal", env, "key"), "sk-literal");
    assert.equal(await resolveConfigValue("a$$b", env, "key"), "a$b");
    assert.equal(await resolveConfigValue("$!not-a-command", env, "key"), "!not-a-command");
    assert.equal(await resolveConfigValue("price $5", env, "key"), "price $5");
    assert.equal(await resolveConfigValue("${not valid}", env, "key"), "${not valid}");
  });

  it("still reads a bare all-caps variable name the way pi 0.73 did, when it is set", async () => {
    assert.equal(resolveStaticValue("MY_API_KEY", env), "from-env");
    assert.equal(resolveStaticValue("UNSET_NAME", env), "UNSET_NAME");
    assert.equal(resolveStaticValue("ollama", env), "ollama");
  });

  it("names the missing variable", async () => {
    await assert.rejects(resolveConfigValue("$MISSING", env, 'API key for provider "x"'), {
      message: 'Failed to resolve API key for provider "x" from environment variable: MISSING',
    });
    assert.equal(isValueConfigured("$MISSING", env), false);
    assert.equal(isValueConfigured("$FOO", env), true);
  });

  it("runs !command through the shell and uses its trimmed output", async () => {
    assert.equal(await resolveConfigValue("!printf '  secret-from-cmd\\n'", env, "key", shellCommandRunner), "secret-from-cmd");
    assert.equal(await resolveConfigValue('!printf "%s" "$FOO"', env, "key", shellCommandRunner), "foo-value");
    assert.equal(isValueConfigured("!anything", env), true, "a command counts as configured without running it");
  });

  it("reports a failing or silent command, and refuses commands when disabled", async () => {
    await assert.rejects(resolveConfigValue("!exit 3", env, "key", shellCommandRunner), { message: "Failed to resolve key from command: exit 3" });
    await assert.rejects(resolveConfigValue("!true", env, "key", shellCommandRunner), /from command: true/);
    await assert.rejects(resolveConfigValue("!echo hi", env, "key"), /running commands \("!echo hi"\) is disabled/);
  });

  it("knows each provider's conventional variables, in pi's order", () => {
    assert.deepEqual(envApiKey("groq", { GROQ_API_KEY: "g" }), { key: "g", variable: "GROQ_API_KEY" });
    assert.deepEqual(envApiKey("google", { GEMINI_API_KEY: "k" }), { key: "k", variable: "GEMINI_API_KEY" });
    assert.deepEqual(envApiKey("anthropic", { ANTHROPIC_API_KEY: "a", ANTHROPIC_OAUTH_TOKEN: "o" }), { key: "o", variable: "ANTHROPIC_OAUTH_TOKEN" });
    assert.equal(envApiKey("openai", { OPENAI_API_KEY: "" }), undefined);
    assert.equal(envApiKey("my-proxy", { MY_PROXY_API_KEY: "x" }), undefined);
    assert.equal(missingKeyHint("anthropic"), "set ANTHROPIC_API_KEY or apiKey in models.json");
    assert.match(missingKeyHint("my-proxy"), /set apiKey for it in models.json/);
  });
});

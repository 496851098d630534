import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliOptions } from "./cli-options";
import { setUpModels } from "./model-setup";
import { gatewayProviders, MODEL_GATEWAY_ENV } from "./secret-env";

const entry = (baseUrl: string) => ({ baseUrl, api: "openai-completions", apiKey: "$PI_VSCODE_LM_TOKEN", models: [{ id: "lm-1", name: "LM 1 (VS Code)" }] });

describe("host: providers the editor's gateway serves itself (PI_MODEL_GATEWAY's custom)", () => {
  it("takes only entries on the loopback gateway, and nothing from text that is not the descriptor", () => {
    const text = JSON.stringify({ providers: {}, custom: { "vscode-lm": entry("http://127.0.0.1:5000/vscode-lm/v1"), far: entry("https://evil.example/v1"), local: entry("http://localhost:5000/v1"), ["__proto__"]: entry("http://127.0.0.1:1/v1") } });
    const taken = gatewayProviders({ [MODEL_GATEWAY_ENV]: text });
    assert.deepEqual(Object.keys(taken).sort(), ["__proto__", "vscode-lm"].sort());
    assert.equal(Object.getPrototypeOf(taken), Object.prototype, "a provider named __proto__ is a plain key");
    for (const bad of ["", "not json", "[]", '{"custom":[1]}', '{"custom":"x"}', "null"]) assert.deepEqual(gatewayProviders({ [MODEL_GATEWAY_ENV]: bad }), {}, bad);
  });

  it("lists them as models the host can pick, with the token from the secrets and no key needed elsewhere", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "gateway-providers-"));
    try {
      const secretEnv = { [MODEL_GATEWAY_ENV]: JSON.stringify({ providers: {}, custom: { "vscode-lm": entry("http://127.0.0.1:5000/vscode-lm/v1"), broken: { baseUrl: "http://127.0.0.1:5000/x", models: "nope" } } }), PI_VSCODE_LM_TOKEN: "tok" };
      const warnings: string[] = [];
      const { registry } = setUpModels({} as CliOptions, {} as never, { agentDir, env: {}, secretEnv, warn: (m) => warnings.push(m) });
      const model = registry.find("vscode-lm", "lm-1");
      assert.equal(model?.name, "LM 1 (VS Code)");
      assert.equal(model?.baseUrl, "http://127.0.0.1:5000/vscode-lm/v1");
      assert.equal(await registry.apiKeyFor(model!), "tok");
      assert.ok(warnings.some((w) => w.includes(MODEL_GATEWAY_ENV) && w.includes("broken")), warnings.join("\n"));
      assert.equal(registry.find("broken", "x"), undefined);
    } finally {
      rmSync(agentDir, { recursive: true, force: true });
    }
  });
});

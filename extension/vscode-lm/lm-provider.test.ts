import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentGateway } from "../gateway/agent-gateway";
import type { LmBackend } from "./lm-backend";
import { VSCODE_LM_TOKEN_ENV, vscodeLmProvider } from "./lm-provider";

const backend: LmBackend = { models: async () => [], chat: async () => (async function* () {})(), countTokens: async () => 0 };
const model = { id: "copilot/gpt", name: "GPT", vendor: "copilot", family: "gpt", maxInputTokens: 64_000, imageInput: true };

describe("vscode-lm: VS Code's models as one provider of the agent's gateway", () => {
  const start = async (modelsJson: unknown, stored: string[]) => {
    const agentDir = mkdtempSync(join(tmpdir(), "vscode-lm-provider-"));
    if (modelsJson) writeFileSync(join(agentDir, "models.json"), JSON.stringify(modelsJson));
    const gateway = await AgentGateway.start({ variables: stored, key: async () => "sk-stored", allowsOrigin: async () => true }, { PI_CODING_AGENT_DIR: agentDir }, undefined, [vscodeLmProvider(backend, [model])!]);
    rmSync(agentDir, { recursive: true, force: true });
    return gateway;
  };

  it("gives the agent a models.json entry on the loopback gateway, its key the gateway's token, and no entry without models", async () => {
    assert.equal(vscodeLmProvider(backend, []), undefined);
    const gateway = await start(undefined, []);
    try {
      const descriptor = JSON.parse(gateway.env.PI_MODEL_GATEWAY!) as { custom: Record<string, { baseUrl: string; apiKey: string; api: string; models: { id: string; name: string; input: string[] }[] }> };
      const entry = descriptor.custom["vscode-lm"]!;
      assert.match(entry.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/vscode-lm\/v1$/);
      assert.equal(entry.apiKey, `$${VSCODE_LM_TOKEN_ENV}`);
      assert.equal(entry.api, "openai-completions");
      assert.deepEqual(entry.models.map((m) => [m.id, m.name, m.input]), [["copilot/gpt", "GPT (VS Code)", ["text", "image"]]]);
      assert.ok(gateway.env[VSCODE_LM_TOKEN_ENV] && gateway.env[VSCODE_LM_TOKEN_ENV]!.length >= 40, "the token, never a key");
      assert.deepEqual(gateway.providers, ["vscode-lm"]);
    } finally {
      gateway.dispose();
    }
  });

  it("leaves a models.json provider of the same name on its own route (its stored key is not shadowed)", async () => {
    const gateway = await start({ providers: { "vscode-lm": { baseUrl: "http://127.0.0.1:9/v1", apiKey: "$MY_KEY", api: "openai-completions", models: [{ id: "m" }] } } }, ["MY_KEY"]);
    try {
      const descriptor = JSON.parse(gateway.env.PI_MODEL_GATEWAY!) as { providers: Record<string, unknown>; custom?: unknown };
      assert.deepEqual(Object.keys(descriptor.providers), ["vscode-lm"]);
      assert.equal(descriptor.custom, undefined);
      assert.equal(gateway.env[VSCODE_LM_TOKEN_ENV], undefined);
    } finally {
      gateway.dispose();
    }
  });
});

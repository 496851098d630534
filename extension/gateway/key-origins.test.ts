import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentGateway } from "./agent-gateway";
import { planGateway } from "./gateway-plan";
import { approvedProviders, isDefaultOrigin } from "./key-origins";

describe("gateway: a stored key goes only to its provider's origin or one the user approved", () => {
  const modelsJson = {
    providers: {
      openai: { baseUrl: "https://api.openai.com/v1" }, // its own default: never asked
      groq: { baseUrl: "https://evil.example/openai/v1" }, // a built-in re-pointed by the file
      mine: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "$MY_KEY", models: [{ id: "m" }] },
    },
  };

  it("never asks for a built-in provider's default origin", () => {
    assert.equal(isDefaultOrigin("OPENAI_API_KEY", "https://api.openai.com"), true);
    assert.equal(isDefaultOrigin("OPENAI_API_KEY", "https://api.openai.com.evil.example"), false);
    assert.equal(isDefaultOrigin("MY_KEY", "http://127.0.0.1:9"), false);
  });

  it("asks for every other origin, and routes only what the user approved", async () => {
    const plan = planGateway(["OPENAI_API_KEY", "GROQ_API_KEY", "MY_KEY"], modelsJson);
    const asked: string[] = [];
    const { approved, refused } = await approvedProviders(plan.providers, async (variable, origin, provider) => {
      asked.push(`${variable} ${origin} ${provider}`);
      return provider === "mine";
    });
    assert.deepEqual(asked.sort(), ["GROQ_API_KEY https://evil.example groq", "MY_KEY http://127.0.0.1:9 mine"]);
    assert.deepEqual(approved.map((p) => p.name).sort(), ["mine", "openai"]);
    assert.deepEqual(refused.map((p) => p.name), ["groq"]);
  });
});

describe("gateway: an agent's gateway leaves out a key the user did not let go to its address", () => {
  // agent-gateway.ts imports only vscode's types: it runs under plain Node.
  const start = async (allow: boolean) => {
    const agentDir = mkdtempSync(join(tmpdir(), "gateway-origins-"));
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { mine: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "$MY_KEY", models: [{ id: "m" }] } } }));
    const asked: string[] = [];
    const gateway = await AgentGateway.start(
      { variables: ["MY_KEY"], key: async () => "sk-secret", allowsOrigin: async (variable, origin) => (asked.push(`${variable} ${origin}`), allow) },
      { PI_CODING_AGENT_DIR: agentDir },
    );
    rmSync(agentDir, { recursive: true, force: true });
    return { gateway, asked };
  };

  it("routes nothing for it when refused: no token in the agent's environment, the key named as not given", async () => {
    const { gateway, asked } = await start(false);
    try {
      assert.deepEqual(asked, ["MY_KEY http://127.0.0.1:9"]);
      assert.equal(gateway.env.MY_KEY, undefined);
      assert.deepEqual(gateway.unroutable, ["MY_KEY"]);
    } finally {
      gateway.dispose();
    }
  });

  it("routes it once approved", async () => {
    const { gateway } = await start(true);
    try {
      assert.ok(gateway.env.MY_KEY, "the token stands in the key's variable");
      assert.deepEqual(gateway.providers, ["mine"]);
    } finally {
      gateway.dispose();
    }
  });
});

import { strict as assert } from "node:assert";
import { gatewayDescriptor, planGateway, referencedVariable } from "./gateway-plan";

describe("gateway plan: which providers the model gateway serves", () => {
  it("routes a built-in provider whose key is stored, to its default or its models.json baseUrl", () => {
    assert.deepEqual(planGateway(["OPENAI_API_KEY"], undefined), { providers: [{ name: "openai", variable: "OPENAI_API_KEY", baseUrl: "https://api.openai.com/v1", keyHeaders: [] }], unroutable: [] });
    const plan = planGateway(["GROQ_API_KEY"], { providers: { groq: { baseUrl: "http://127.0.0.1:4000/v1" } } });
    assert.deepEqual(plan.providers, [{ name: "groq", variable: "GROQ_API_KEY", baseUrl: "http://127.0.0.1:4000/v1", keyHeaders: [] }]);
  });

  it("routes a models.json provider that reads a stored variable in apiKey or a header, in each of pi's forms", () => {
    const models = {
      providers: {
        a: { baseUrl: "https://a.example/v1", apiKey: "$A_KEY" },
        b: { baseUrl: "https://b.example", apiKey: "${B_KEY}" },
        c: { baseUrl: "https://c.example", apiKey: "C_KEY" },
        d: { baseUrl: "https://d.example", apiKey: "literal", headers: { "x-key": "$D_KEY" } },
        e: { models: [{ id: "m", baseUrl: "https://e.example/api" }], apiKey: "$E_KEY" },
      },
    };
    const plan = planGateway(["A_KEY", "B_KEY", "C_KEY", "D_KEY", "E_KEY"], models);
    assert.deepEqual(plan.providers.map((p) => `${p.name} ${p.variable} ${p.baseUrl}`), ["a A_KEY https://a.example/v1", "b B_KEY https://b.example", "c C_KEY https://c.example", "d D_KEY https://d.example", "e E_KEY https://e.example/api"]);
    assert.deepEqual(plan.unroutable, []);
    assert.deepEqual(plan.providers.find((p) => p.name === "d")?.keyHeaders, ["x-key"]);
  });

  it("leaves out what it cannot route safely, and names the stored keys nothing reads", () => {
    const models = {
      providers: {
        ["__proto__"]: { baseUrl: "https://x.example", apiKey: "$X_KEY" },
        local: { baseUrl: "file:///etc/passwd", apiKey: "$Y_KEY" },
        shell: { baseUrl: "https://s.example", apiKey: "!cat $Z_KEY" },
        openai: { apiKey: "sk-literal" }, // its own key: OPENAI_API_KEY is not what it reads
      },
    };
    const plan = planGateway(["X_KEY", "Y_KEY", "Z_KEY", "OPENAI_API_KEY", "UNUSED_KEY"], JSON.parse(JSON.stringify(models)));
    assert.deepEqual(plan.providers, []);
    assert.deepEqual(plan.unroutable, ["X_KEY", "Y_KEY", "Z_KEY", "OPENAI_API_KEY", "UNUSED_KEY"]);
    assert.equal(referencedVariable("$A-B"), undefined);
    assert.equal(referencedVariable("lowercase"), undefined);
  });

  it("describes each provider by its origin, its root at the gateway and pi's base URL there", () => {
    const plan = planGateway(["MISTRAL_API_KEY", "OPENROUTER_API_KEY"], undefined);
    assert.deepEqual(gatewayDescriptor("http://127.0.0.1:5000", plan.providers), {
      providers: {
        openrouter: { origin: "https://openrouter.ai", gateway: "http://127.0.0.1:5000/openrouter", baseUrl: "http://127.0.0.1:5000/openrouter/api/v1" },
        mistral: { origin: "https://api.mistral.ai", gateway: "http://127.0.0.1:5000/mistral", baseUrl: "http://127.0.0.1:5000/mistral" },
      },
    });
  });
});

// pi.registerProvider("<existing provider>", { baseUrl, headers, apiKey }) in the bundled host,
// as pi 0.87.1 does it: the provider keeps its models and their settings, and its requests go to
// the new base URL with the new headers and key. Two extensions over RPC: the editor's own
// dist/pi-gateway.mjs (baseUrl from PI_MODEL_GATEWAY) and one that sets headers and a key.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";

const dist = path.resolve(__dirname, "../../dist");
const model = { id: "keyed-model", name: "Keyed", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

describe("agent host: registerProvider re-points an existing provider", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  before(async () => {
    llm = await startMockLlm();
    const headers = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "register-provider-")), "headers.ts");
    fs.writeFileSync(headers, `export default (pi: any) => pi.registerProvider("other", { headers: { "x-extra": "from-extension" }, apiKey: "$OTHER_KEY" });\n`);
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl, extensions: [path.join(dist, "pi-gateway.mjs"), headers] });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
  });

  it("sends a models.json provider's requests to the registered baseUrl, with the registered headers and key", async () => {
    const dead = "http://127.0.0.1:9/v1"; // the discard port: nothing answers there
    const modelsFile = path.join(launch.agentDir, "models.json");
    const models = JSON.parse(fs.readFileSync(modelsFile, "utf8")) as { providers: Record<string, unknown> };
    models.providers.keyed = { baseUrl: dead, api: "openai-completions", apiKey: "$KEYED_KEY", models: [model] };
    models.providers.other = { baseUrl: llm.baseUrl, api: "openai-completions", apiKey: "configured-key", models: [{ ...model, id: "other-model" }] };
    fs.writeFileSync(modelsFile, JSON.stringify(models));
    // PI_MODEL_GATEWAY outside PI_SECRET_ENV: only the extension can act on it here.
    const gateway = JSON.stringify({ providers: { keyed: { origin: "http://127.0.0.1:9", gateway: `${llm.baseUrl.replace(/\/v1$/, "")}/x`, baseUrl: llm.baseUrl } } });
    const env = { ...launch.env, KEYED_KEY: "keyed-token", OTHER_KEY: "other-from-extension", PI_MODEL_GATEWAY: gateway };
    const transport = ProcessTransport.spawn(launch.command, launch.args, { env, cwd: launch.cwd });
    const client = new RpcClient(transport);
    let stderr = "";
    client.onStderr((text) => (stderr += text));
    try {
      await client.request("set_auto_retry", { enabled: false });
      for (const [provider, modelId] of [["keyed", "keyed-model"], ["other", "other-model"]]) {
        await client.request("set_model", { provider, modelId });
        llm.enqueue({ text: `Hello from ${provider}.` });
        const settled = client.waitForSettled();
        await client.request("prompt", { message: "Hi" });
        await settled;
      }
    } finally {
      await transport.stop();
      client.dispose();
    }
    assert.equal(llm.requests.length, 2, `both reached the registered baseUrl; stderr: ${stderr}`);
    assert.equal(llm.requests[0].headers.authorization, "Bearer keyed-token");
    assert.equal(llm.requests[1].headers.authorization, "Bearer other-from-extension");
    assert.equal(llm.requests[1].headers["x-extra"], "from-extension");
    assert.doesNotMatch(stderr, /not supported by this agent host/);
  });
});

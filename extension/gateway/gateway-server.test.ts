import { strict as assert } from "node:assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startGatewayServer, type GatewayServer } from "./gateway-server";

/** An upstream on loopback that answers with the key it was sent. */
async function upstream(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => res.end(String(req.headers["x-api-key"] ?? req.headers["x-goog-api-key"] ?? "")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function send(gateway: GatewayServer, route: string, header: string, token: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${gateway.url}/${route}/v1/x`, { method: "POST", headers: { [header]: token }, body: "{}" });
  return { status: response.status, body: await response.text() };
}

describe("model gateway: a route's own token (an ACP agent signed in for one provider)", () => {
  it("serves its route only; the session token (pi, omp) serves every route", async () => {
    const anthropic = await upstream();
    const google = await upstream();
    const gateway = await startGatewayServer([
      { name: "anthropic", upstream: anthropic.url, key: async () => "sk-ant-stored" },
      { name: "google", upstream: google.url, key: async () => "AIza-stored" },
    ]);
    try {
      const googleToken = gateway.routeToken("google");
      assert.ok(googleToken && googleToken !== gateway.token && googleToken.length === gateway.token.length);
      assert.deepEqual(await send(gateway, "google", "x-goog-api-key", googleToken), { status: 200, body: "AIza-stored" });
      // Signed in with Gemini's key through the gateway: the user's Anthropic key is not its to spend.
      assert.equal((await send(gateway, "anthropic", "x-api-key", googleToken)).status, 401);
      assert.deepEqual(await send(gateway, "anthropic", "x-api-key", gateway.token), { status: 200, body: "sk-ant-stored" });
      assert.deepEqual(await send(gateway, "google", "x-goog-api-key", gateway.token), { status: 200, body: "AIza-stored" });
      assert.equal(gateway.routeToken("openai"), undefined);
    } finally {
      await gateway.close();
      anthropic.close();
      google.close();
    }
  });
});

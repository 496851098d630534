// The model gateway (extension/gateway/gateway-server.ts) between the bundled host's real
// providers and the scripted wire servers of each format: the agent side holds only the token,
// the provider gets the real key where its wire format carries it; a stream arrives as streamed;
// an abort on either side closes the other; requests that are not the agent's are refused.
import { strict as assert } from "node:assert";
import * as http from "node:http";
import { stream } from "../../agent-host/ai/stream";
import type { Api, AssistantMessage, Context, Model } from "../../agent-host/ai/types";
import { startGatewayServer, type GatewayServer } from "../../extension/gateway/gateway-server";
import { startAnthropicServer } from "../llm-servers/anthropic-server";
import { startGoogleServer } from "../llm-servers/google-server";
import { startCompletionsServer } from "../llm-servers/openai-completions-server";
import { startResponsesServer } from "../llm-servers/openai-responses-server";
import { fakeSecret } from "./leak-scan";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };

function model(api: Api, baseUrl: string): Model {
  return { id: "m-1", name: "M", api, provider: "p", baseUrl, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 1000 };
}

/** The gateway's base URL for `upstreamBaseUrl` (same path after the provider's root). */
const through = (gateway: GatewayServer, upstreamBaseUrl: string) => `${gateway.url}/p${new URL(upstreamBaseUrl).pathname.replace(/\/$/, "")}`;

async function run(api: Api, baseUrl: string, apiKey: string): Promise<AssistantMessage> {
  const events = stream(model(api, baseUrl), context, { apiKey });
  for await (const _ of events) void _;
  return events.result();
}

const textOf = (message: AssistantMessage) => message.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** A raw request to the gateway: status, headers and the body's chunks with their arrival times. */
function raw(url: string, options: http.RequestOptions & { body?: string } = {}): Promise<{ status: number; body: string; chunks: { at: number; text: string }[] }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", ...options }, (res) => {
      const chunks: { at: number; text: string }[] = [];
      res.on("data", (chunk: Buffer) => chunks.push({ at: performance.now(), text: chunk.toString() }));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: chunks.map((c) => c.text).join(""), chunks }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body ?? "{}");
  });
}

describe("model gateway: each provider wire format through the gateway", function () {
  this.timeout(20_000);
  const key = fakeSecret("sk-real-");
  let gateway: GatewayServer | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it("OpenAI chat completions: the key in Authorization: Bearer, the token nowhere upstream", async () => {
    const server = await startCompletionsServer();
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      server.enqueue({ text: ["Hel", "lo"] });
      const message = await run("openai-completions", through(gateway, server.baseUrl), gateway.token);
      assert.equal(textOf(message), "Hello", message.errorMessage);
      assert.equal(server.requests[0].headers.authorization, `Bearer ${key}`);
      assert.ok(!JSON.stringify(server.requests[0].headers).includes(gateway.token));
    } finally {
      await server.close();
    }
  });

  it("OpenAI Responses: the key in Authorization: Bearer", async () => {
    const server = await startResponsesServer();
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      server.enqueue({ text: ["Fi", "ne"] });
      const message = await run("openai-responses", through(gateway, server.baseUrl), gateway.token);
      assert.equal(textOf(message), "Fine", message.errorMessage);
      assert.equal(server.requests[0].headers.authorization, `Bearer ${key}`);
      assert.ok(!JSON.stringify(server.requests[0].headers).includes(gateway.token));
    } finally {
      await server.close();
    }
  });

  it("Anthropic Messages: the key in x-api-key", async () => {
    const server = await startAnthropicServer(key);
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      server.enqueue({ blocks: [{ type: "text", chunks: ["Cl", "aude"] }] });
      const message = await run("anthropic-messages", through(gateway, server.baseUrl), gateway.token);
      assert.equal(textOf(message), "Claude", message.errorMessage);
      assert.equal(server.requests[0].headers["x-api-key"], key);
      assert.ok(!JSON.stringify(server.requests[0].headers).includes(gateway.token));
    } finally {
      await server.close();
    }
  });

  it("Google Generative AI: the key in x-goog-api-key, and a ?key= query gets it too", async () => {
    const server = await startGoogleServer(key);
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      server.enqueue({ chunks: [[{ text: "Gem" }], [{ text: "ini" }]] });
      const message = await run("google-generative-ai", through(gateway, server.baseUrl), gateway.token);
      assert.equal(textOf(message), "Gemini", message.errorMessage);
      assert.equal(server.requests[0].headers["x-goog-api-key"], key);
      assert.ok(!JSON.stringify(server.requests[0]).includes(gateway.token));
      // Google's other form: the key in the query string (curl examples, older SDKs)
      server.enqueue({ chunks: [[{ text: "Q" }]] });
      const byQuery = await raw(`${gateway.url}/p/v1beta/models/m-1:streamGenerateContent?alt=sse&key=${gateway.token}`, { headers: { "content-type": "application/json", "x-goog-api-key": gateway.token }, body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "Hi" }] }] }) });
      // (the scripted server knows no route with a query beyond alt=sse: it answers 404, and an
      // error that echoes the key reaches the agent masked)
      assert.equal(server.requests[1].url, `/v1beta/models/m-1:streamGenerateContent?alt=sse&key=${encodeURIComponent(key)}`);
      assert.equal(server.requests[1].headers["x-goog-api-key"], key);
      assert.ok(byQuery.body.includes("key=***") && !byQuery.body.includes(key), byQuery.body);
    } finally {
      await server.close();
    }
  });

  it("masks the key in an error the provider echoes it in (body and headers)", async () => {
    const server = await startCompletionsServer();
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      server.enqueue({ kind: "http-error", status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } }, headers: { "x-echo": `Bearer ${key}` } });
      const message = await run("openai-completions", through(gateway, server.baseUrl), gateway.token);
      assert.equal(message.stopReason, "error");
      assert.ok(message.errorMessage?.includes("Incorrect API key provided: ***"), message.errorMessage);
      const reply = await new Promise<http.IncomingMessage>((resolve) => {
        server.enqueue({ kind: "http-error", status: 401, body: `no: ${key}`, headers: { "x-echo": `Bearer ${key}` } });
        http.request(`${gateway!.url}/p/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${gateway!.token}` } }, resolve).end("{}");
      });
      assert.equal(reply.headers["x-echo"], "Bearer ***");
    } finally {
      await server.close();
    }
  });

  it("refuses a wrong token, a browser's Origin, a foreign Host, an unknown provider and a path that names another host", async () => {
    const server = await startCompletionsServer();
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      const url = `${gateway.url}/p/v1/chat/completions`;
      const bearer = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });
      const wrongToken = await raw(url, { headers: bearer(gateway.token.slice(0, -1) + (gateway.token.endsWith("A") ? "B" : "A")) });
      const noToken = await raw(url, { headers: { "content-type": "application/json" } });
      const tokenInBody = await raw(url, { headers: { "content-type": "application/json" }, body: JSON.stringify({ key: gateway.token }) });
      const prefixedToken = await raw(url, { headers: bearer(`${gateway.token}x`) });
      // the token in a header that carries no key (one a server might echo back): not accepted
      const otherHeader = await raw(url, { headers: { "content-type": "application/json", "x-echo-me": gateway.token } });
      const otherQuery = await raw(`${url}?api_key=${gateway.token}`, { headers: { "content-type": "application/json" } });
      const origin = await raw(url, { headers: { ...bearer(gateway.token), origin: "http://localhost:3000" } });
      const fetchSite = await raw(url, { headers: { ...bearer(gateway.token), "sec-fetch-site": "cross-site" } });
      const rebinding = await raw(url, { headers: { ...bearer(gateway.token), host: `attacker.example:${new URL(gateway.url).port}` } });
      const localhost = await raw(url, { headers: { ...bearer(gateway.token), host: `localhost:${new URL(gateway.url).port}` } });
      const unknown = await raw(`${gateway.url}/openai/v1/chat/completions`, { headers: bearer(gateway.token) });
      const proto = await raw(`${gateway.url}/__proto__/v1/chat/completions`, { headers: bearer(gateway.token) });
      const absolute = await raw(gateway.url, { path: "http://attacker.example/p/v1/chat/completions", headers: { ...bearer(gateway.token), host: new URL(gateway.url).host } });
      assert.deepEqual(
        [wrongToken, noToken, tokenInBody, prefixedToken, otherHeader, otherQuery, origin, fetchSite, rebinding, localhost, unknown, proto, absolute].map((r) => r.status),
        [401, 401, 401, 401, 401, 401, 403, 403, 403, 403, 404, 404, 404],
      );
      assert.equal(server.requests.length, 0, "nothing refused reached the provider");
      // A path that names another host still goes to the provider's own origin only.
      server.enqueue({ text: ["ok"] });
      const sneaky = await raw(`${gateway.url}/p//attacker.example/v1/chat/completions`, { headers: bearer(gateway.token), body: JSON.stringify({ model: "m", messages: [], stream: true }) });
      assert.equal(sneaky.status, 200, sneaky.body);
      assert.equal(server.requests.length, 1, "it reached the provider's own server");
    } finally {
      await server.close();
    }
  });

  it("streams as it comes: the first delta arrives long before the last is sent", async () => {
    const server = await startCompletionsServer();
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      server.enqueue({ text: ["a", "b", "c", "d", "e"], delayMs: 80 });
      const reply = await raw(`${gateway.url}/p/v1/chat/completions`, { headers: { authorization: `Bearer ${gateway.token}`, "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages: [], stream: true }) });
      const spread = reply.chunks[reply.chunks.length - 1].at - reply.chunks[0].at;
      assert.ok(reply.chunks.length >= 5 && spread >= 250, `chunks ${reply.chunks.length} over ${spread.toFixed(0)} ms`);
      assert.ok(reply.body.includes("[DONE]"));
    } finally {
      await server.close();
    }
  });

  it("an abort by the agent closes the upstream request; a provider that drops the stream ends the agent's", async () => {
    const server = await startAnthropicServer(key);
    try {
      gateway = await startGatewayServer([{ name: "p", upstream: server.baseUrl, key: async () => key }]);
      server.enqueue({ blocks: [{ type: "text", chunks: ["wait"] }], hangAfterBlocks: true });
      const controller = new AbortController();
      const events = stream(model("anthropic-messages", through(gateway, server.baseUrl)), context, { apiKey: gateway.token, signal: controller.signal });
      for await (const event of events) if (event.type === "text_delta") controller.abort();
      assert.equal((await events.result()).stopReason, "aborted");
      await Promise.race([server.requests[0].closed, new Promise((_, reject) => setTimeout(() => reject(new Error("the upstream request stayed open")), 3000))]);

      // the other way: the provider goes away mid-stream
      server.enqueue({ blocks: [{ type: "text", chunks: ["half"] }], hangAfterBlocks: true });
      const dropped = stream(model("anthropic-messages", through(gateway, server.baseUrl)), context, { apiKey: gateway.token });
      for await (const event of dropped) if (event.type === "text_delta") void server.close();
      const message = await dropped.result();
      assert.equal(message.stopReason, "error", "the agent's stream ended with an error, not a hang");
    } finally {
      await server.close();
    }
  });
});

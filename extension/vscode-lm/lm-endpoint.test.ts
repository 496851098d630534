import { strict as assert } from "node:assert";
import { startGatewayServer, type GatewayServer } from "../gateway/gateway-server";
import { LmError, type LmBackend, type LmStreamPart } from "./lm-backend";
import { createLmEndpoint } from "./lm-endpoint";

describe("vscode-lm: the gateway's chat-completions endpoint in front of VS Code's models", () => {
  let server: GatewayServer;
  let next: () => AsyncIterable<LmStreamPart> = async function* () {};
  let failWith: LmError | undefined;
  const backend: LmBackend = {
    models: async () => [{ id: "m1", name: "M1", vendor: "v", family: "f", maxInputTokens: 1000, imageInput: false }],
    chat: async () => {
      if (failWith) throw failWith;
      return next();
    },
    countTokens: async (_id, texts) => texts.join("").length,
  };
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/vscode-lm/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const ask = { model: "m1", messages: [{ role: "user", content: "hi" }] };

  before(async () => {
    server = await startGatewayServer([], { local: new Map([["vscode-lm", createLmEndpoint(backend)]]) });
  });
  after(() => server.close());
  beforeEach(() => (failWith = undefined));

  it("refuses a request without the token, or from a browser, before the model is asked", async () => {
    let asked = 0;
    next = async function* () {
      asked++;
    };
    assert.equal((await post(ask, { authorization: "Bearer wrong" })).status, 401);
    assert.equal((await fetch(`${server.url}/vscode-lm/v1/models`)).status, 401);
    assert.equal((await post(ask, { origin: "http://evil.example" })).status, 403);
    assert.equal(asked, 0);
  });

  it("answers whole when not streaming, with the tool calls and the token counts", async () => {
    next = async function* () {
      yield { type: "text", text: "Hi " };
      yield { type: "text", text: "there" };
      yield { type: "tool_call", id: "c1", name: "read", input: { path: "a" } };
    };
    const reply = (await (await post(ask)).json()) as { choices: { message: { content: string; tool_calls: unknown[] }; finish_reason: string }[]; usage: { prompt_tokens: number; completion_tokens: number } };
    assert.equal(reply.choices[0]!.message.content, "Hi there");
    assert.deepEqual(reply.choices[0]!.message.tool_calls, [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }]);
    assert.equal(reply.choices[0]!.finish_reason, "tool_calls");
    assert.equal(reply.usage.prompt_tokens, 2);
    assert.ok(reply.usage.completion_tokens > 0);
  });

  it("maps VS Code's errors to statuses and OpenAI's error shape", async () => {
    for (const [code, status] of [["NoPermissions", 403], ["NotFound", 404], ["Blocked", 429], ["Unknown", 502]] as const) {
      failWith = new LmError(code, `said ${code}`);
      const response = await post({ ...ask, stream: true });
      assert.equal(response.status, status, code);
      assert.deepEqual(await response.json(), { error: { message: `said ${code}`, type: { NoPermissions: "permission_error", NotFound: "not_found_error", Blocked: "rate_limit_error", Unknown: "api_error" }[code], code } });
    }
    const bad = await post({ model: "m1", messages: "nope" });
    assert.equal(bad.status, 400);
    const notJson = await fetch(`${server.url}/vscode-lm/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${server.token}` }, body: "{" });
    assert.equal(notJson.status, 400);
  });

  it("streams each part as one chunk, and a failure within the stream as an error chunk", async () => {
    next = async function* () {
      yield { type: "text", text: "partial" };
      throw new LmError("Blocked", "quota used up");
    };
    const text = await (await post({ ...ask, stream: true })).text();
    const events = text.split("\n\n").filter(Boolean).map((line) => JSON.parse(line.slice("data: ".length)) as { choices?: { delta: { content?: string } }[]; error?: { code: string } });
    assert.deepEqual(events.map((e) => e.error?.code ?? e.choices?.[0]?.delta.content), ["", "partial", "Blocked"]);
  });

  it("lists the models, and 404s any other path", async () => {
    const list = (await (await fetch(`${server.url}/vscode-lm/v1/models`, { headers: { authorization: `Bearer ${server.token}` } })).json()) as { data: { id: string }[] };
    assert.deepEqual(list.data.map((m) => m.id), ["m1"]);
    assert.equal((await fetch(`${server.url}/vscode-lm/v1/embeddings`, { method: "POST", headers: { authorization: `Bearer ${server.token}` } })).status, 404);
  });

  it("streams a long answer at a steady cost per part (10x a usual answer)", async () => {
    const parts = 20_000; // a usual long answer is ~2,000 deltas
    next = async function* () {
      for (let i = 0; i < parts; i++) yield { type: "text", text: "word " };
    };
    const started = process.hrtime.bigint();
    const response = await post({ ...ask, stream: true, stream_options: { include_usage: true } });
    const text = await response.text();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.equal(text.split("\n\n").filter((l) => l.includes('"content":"word "')).length, parts);
    console.log(`      figures: ${parts} parts streamed in ${ms.toFixed(0)} ms (${((ms * 1000) / parts).toFixed(1)} µs a part, HTTP included)`);
  });
});

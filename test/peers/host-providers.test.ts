/**
 * Every provider bundle of the built host (dist/providers/*.js, each with its real SDK) against a
 * local server that speaks that provider's wire format: a streamed reply and an HTTP error. The
 * OpenAI and Anthropic bundles fetch through node:http with our Headers stand-in injected by
 * esbuild, so this is where that build step is checked end to end; Google's keeps Node's fetch.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { startAnthropicServer, type AnthropicServer } from "../llm-servers/anthropic-server";
import { startGoogleServer, type GoogleServer } from "../llm-servers/google-server";
import { startCompletionsServer, type CompletionsTurn } from "../llm-servers/openai-completions-server";
import { startResponsesServer, type ResponsesTurn } from "../llm-servers/openai-responses-server";
import type { ScriptedServer } from "../llm-servers/sse";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

interface Case {
  api: string;
  model: string;
  reply(text: string[]): void;
  failWith(status: number): void;
  /** Streams the text, then keeps the response open. */
  hang(text: string[]): void;
}

describe("host: each provider bundle streams a reply and reports an HTTP error", function () {
  let llm: MockLlm;
  let peer: PeerClient;
  let completions: ScriptedServer<CompletionsTurn>;
  let responses: ScriptedServer<ResponsesTurn>;
  let anthropic: AnthropicServer;
  let google: GoogleServer;
  const cases: Case[] = [];

  before(async () => {
    llm = await startMockLlm();
    [completions, responses, anthropic, google] = await Promise.all([startCompletionsServer(), startResponsesServer(), startAnthropicServer(), startGoogleServer()]);
    const model = (id: string) => ({ id, name: id, reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
    const providers = {
      mock: { baseUrl: llm.baseUrl, api: "openai-completions", apiKey: "mock-key", models: [model("mock")] },
      "wire-completions": { baseUrl: completions.baseUrl, api: "openai-completions", apiKey: "k-c", models: [model("c-1")] },
      "wire-responses": { baseUrl: responses.baseUrl, api: "openai-responses", apiKey: "k-r", models: [model("r-1")] },
      "wire-anthropic": { baseUrl: anthropic.baseUrl, api: "anthropic-messages", apiKey: anthropic.apiKey, models: [model("a-1")] },
      "wire-google": { baseUrl: google.baseUrl, api: "google-generative-ai", apiKey: google.apiKey, models: [model("g-1")] },
    };
    cases.push(
      {
        api: "wire-completions", model: "c-1", reply: (text) => completions.enqueue({ text }), failWith: (status) => completions.enqueue({ kind: "http-error", status }),
        hang: (text) => completions.enqueue({ text, end: "hang" }),
      },
      {
        api: "wire-responses", model: "r-1", reply: (text) => responses.enqueue({ text }), failWith: (status) => responses.enqueue({ kind: "http-error", status, body: { error: { message: "refused", type: "x", code: "x" } } }),
        hang: (text) => responses.enqueue({ text, end: "hang" }),
      },
      {
        api: "wire-anthropic", model: "a-1", reply: (text) => anthropic.enqueue({ blocks: [{ type: "text", chunks: text }] }), failWith: (status) => anthropic.enqueue({ kind: "http-error", status, type: "rate_limit_error", message: "refused" }),
        hang: (text) => anthropic.enqueue({ blocks: [{ type: "text", chunks: text }], hangAfterBlocks: true }),
      },
      {
        api: "wire-google", model: "g-1", reply: (text) => google.enqueue({ chunks: text.map((t) => [{ text: t }]) }), failWith: (status) => google.enqueue({ kind: "http-error", status, statusName: "RESOURCE_EXHAUSTED", message: "refused" }),
        hang: (text) => google.enqueue({ chunks: text.map((t) => [{ text: t }]), hangAfterChunks: true }),
      },
    );
    peer = startPeerClient("host", llm, {
      prepare: (launch) => fs.writeFileSync(path.join(launch.env.PI_CODING_AGENT_DIR!, "models.json"), JSON.stringify({ providers })),
    });
    await peer.client.request("set_auto_retry", { enabled: false });
  });
  after(async () => {
    await peer?.stop();
    await Promise.all([llm?.close(), completions?.close(), responses?.close(), anthropic?.close(), google?.close()]);
  });

  const lastAssistant = async () => {
    const { messages } = (await peer.client.request("get_messages", {})) as { messages: { role: string; errorMessage?: string; stopReason?: string; content?: { type: string; text?: string }[] }[] };
    return messages.filter((m) => m.role === "assistant").at(-1);
  };

  for (const [i, name] of ["wire-completions", "wire-responses", "wire-anthropic", "wire-google"].entries()) {
    it(`${name}: the streamed text arrives whole; a 429 ends the turn with an error naming the status`, async () => {
      const c = cases[i]!;
      await peer.client.request("set_model", { provider: c.api, modelId: c.model });
      c.reply(["Hel", "lo from ", name]);
      await runPrompt(peer, "hi");
      const text = (await peer.client.request("get_last_assistant_text", {})) as { text: string | null };
      assert.equal(text.text, `Hello from ${name}`);

      c.failWith(429);
      await runPrompt(peer, "again");
      const failed = await lastAssistant();
      assert.equal(failed?.stopReason, "error");
      assert.match(failed?.errorMessage ?? "", /429/);
    });

    it(`${name}: abort while the server holds the stream open ends the turn as aborted, keeping what streamed`, async () => {
      const c = cases[i]!;
      await peer.client.request("set_model", { provider: c.api, modelId: c.model });
      c.hang(["partial ", "text"]);
      const from = peer.received.length;
      const settled = peer.client.waitForSettled();
      await peer.client.request("prompt", { message: "hang" });
      await peer.waitForFrame((f) => f.type === "message_update", from);
      await peer.client.request("abort", {});
      await settled;
      const aborted = await lastAssistant();
      assert.equal(aborted?.stopReason, "aborted");
      assert.match((aborted?.content ?? []).map((b) => b.text ?? "").join(""), /partial/);
    });
  }
});

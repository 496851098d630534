import { strict as assert } from "node:assert";
import type { AssistantMessage } from "../../ai/types";
import { isContextOverflow, isRecoverableLength } from "./overflow";
import { assistant, usage } from "../../../test/fixtures/host/compaction";

const failed = (errorMessage: string, provider = "openai"): AssistantMessage => ({ ...assistant(""), provider, stopReason: "error", errorMessage });

describe("context overflow recognition", () => {
  const overflows: [string, string][] = [
    ["OpenAI chat completions", "400 This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages."],
    ["OpenAI responses", "Your input exceeds the context window of this model. Please adjust your input and try again."],
    ["OpenAI error code", "context_length_exceeded"],
    ["LiteLLM", "Requested token count exceeds the model's maximum context length of 131072 tokens"],
    ["vLLM-style", "Input length (265330) exceeds model's maximum context length (262144)."],
    ["Anthropic", '400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}}'],
    ["Anthropic 413", '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}'],
    ["Google Gemini", "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."],
    ["Bedrock", "ValidationException: Input is too long for requested model."],
    ["xAI", "This model's maximum prompt length is 131072 but the request contains 537812 tokens."],
    ["OpenRouter", "This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens."],
    ["Together AI", "The input (300000 tokens) is longer than the model's context length (131072 tokens)."],
    ["llama.cpp", "the request exceeds the available context size, try increasing it"],
    ["LM Studio", "The number of tokens to keep from the initial prompt is greater than the context length"],
    ["GitHub Copilot", "prompt token count of 140000 exceeds the limit of 128000"],
    ["Mistral", "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length"],
    ["Ollama", "prompt too long; exceeded max context length by 1200 tokens"],
  ];
  for (const [provider, text] of overflows) {
    it(`recognises ${provider}: "${text.slice(0, 50)}…"`, () => assert.equal(isContextOverflow(failed(text)), true));
  }

  it("recognises Cerebras' bodyless 400/413 only from Cerebras", () => {
    assert.equal(isContextOverflow(failed("413 status code (no body)", "cerebras")), true);
    assert.equal(isContextOverflow(failed("413 status code (no body)", "openai")), false);
  });

  it("does not take rate limits, throttling or other errors for overflows", () => {
    for (const text of [
      "429 Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 5000.",
      "Throttling error: Too many tokens, please wait before trying again.",
      "529 Overloaded",
      "401 Invalid API key",
      "Request was aborted",
    ]) assert.equal(isContextOverflow(failed(text)), false, text);
    assert.equal(isContextOverflow({ ...failed("prompt is too long"), stopReason: "aborted" }), false, "only failed replies");
  });

  it("detects a silent overflow from usage when the context window is known", () => {
    const ok = assistant("fine", { usage: { ...usage(120_000, 10), cacheRead: 10_000 } });
    assert.equal(isContextOverflow(ok, 128_000), true);
    assert.equal(isContextOverflow(ok), false, "without a window there is nothing to compare with");
    assert.equal(isContextOverflow(assistant("fine", { usage: usage(100_000, 10) }), 128_000), false);
  });

  it("detects a length stop with no output on a full window, and length stops below the asked limit", () => {
    const full = assistant("", { usage: usage(127_500, 0), stopReason: "length" });
    assert.equal(isContextOverflow(full, 128_000), true);
    assert.equal(isContextOverflow(assistant("", { usage: usage(60_000, 0), stopReason: "length" }), 128_000), false);
    assert.equal(isRecoverableLength(assistant("cut", { usage: usage(1000, 300), stopReason: "length" }), 4096), true);
    assert.equal(isRecoverableLength(assistant("cut", { usage: usage(1000, 4096), stopReason: "length" }), 4096), false);
  });
});

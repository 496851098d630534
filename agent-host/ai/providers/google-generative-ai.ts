/**
 * Gemini through the Generative Language API (`streamGenerateContent?alt=sse`), with the official
 * SDK pointed at the model's baseUrl. Gemini sends whole parts, not deltas of blocks: text and
 * thought parts extend the current block until the kind changes, each functionCall part is a
 * complete tool call (Gemini gives no ids before Gemini 3, so we make them). Never throws.
 */
import { randomUUID } from "node:crypto";
import type { GenerateContentResponse, Part } from "@google/genai" with { "resolution-mode": "import" };
import { classifyGoogleError, describeGoogleError } from "../google/errors";
import { buildGoogleRequest } from "../google/request";
import { setGlobalFetchOptions } from "../http/globals";
import { MessageStreamBuilder } from "../message-stream-builder";
import { defineProvider } from "../provider";
import { runSdkStream } from "../sdk-stream";
import type { Context, Model, StreamOptions } from "../types";

export const provider = defineProvider(
  "google-generative-ai",
  run,
  { isAbort: (_error, signal) => signal?.aborted === true, describe: describeGoogleError },
  classifyGoogleError,
);

function run(builder: MessageStreamBuilder, model: Model, context: Context, options: StreamOptions): Promise<void> {
  return runSdkStream<GenerateContentResponse>(builder, model, options, /^(x-goog-api-key|authorization)$/i, async (headers) => {
    const request = buildGoogleRequest(model, context, options);
    options.onPayload?.(request);
    // An ES module: imported, not required (esbuild inlines it into this provider's bundle).
    const { GoogleGenAI } = await import("@google/genai");
    // The SDK calls the global fetch, which this provider's bundle has replaced by ours (esbuild.mjs).
    setGlobalFetchOptions(options);
    const client = new GoogleGenAI({
      apiKey: options.apiKey,
      vertexai: false,
      // The model's baseUrl already names the API version (…/v1beta).
      httpOptions: { baseUrl: model.baseUrl, apiVersion: "", headers },
    });
    const events = await client.models.generateContentStream({ ...request, config: { ...request.config, abortSignal: options.signal } });
    const mapper = new ChunkMapper(builder);
    return { events, apply: (chunk) => mapper.apply(chunk), finish: () => mapper.finish() };
  });
}

class ChunkMapper {
  private current?: { key: string; kind: "text" | "thinking" };
  private blocks = 0;
  private finishReason?: string;
  private finishMessage?: string;
  private blockReason?: string;

  constructor(private readonly builder: MessageStreamBuilder) {}

  apply(chunk: GenerateContentResponse): void {
    this.builder.setResponseId(chunk.responseId);
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.part(part);
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    if (candidate?.finishMessage) this.finishMessage = candidate.finishMessage;
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const usage = chunk.usageMetadata;
    if (usage) {
      const cached = usage.cachedContentTokenCount ?? 0;
      const thoughts = usage.thoughtsTokenCount ?? 0;
      this.builder.usage({
        input: (usage.promptTokenCount ?? 0) - cached,
        // Thinking is billed as output; `reasoning` tells how much of it was thinking.
        output: (usage.candidatesTokenCount ?? 0) + thoughts,
        cacheRead: cached,
        ...(thoughts ? { reasoning: thoughts } : {}),
      });
    }
  }

  private part(part: Part): void {
    if (part.functionCall) {
      this.closeCurrent();
      const key = `call-${this.blocks++}`;
      const { name = "", args = {}, id } = part.functionCall;
      const taken = this.builder.message.content.some((c) => c.type === "toolCall" && c.id === id);
      this.builder.toolCallStart(key, id && !taken ? id : `call_${randomUUID().replace(/-/g, "").slice(0, 20)}`, name);
      this.builder.toolCallArguments(key, JSON.stringify(args));
      if (part.thoughtSignature) this.builder.sign(key, part.thoughtSignature);
      this.builder.end(key);
      return;
    }
    if (part.text === undefined && !part.thoughtSignature) return;
    const kind = part.thought ? "thinking" : "text";
    if (this.current?.kind !== kind) {
      this.closeCurrent();
      this.current = { key: `${kind}-${this.blocks++}`, kind };
    }
    const { key } = this.current;
    if (kind === "thinking") this.builder.thinking(key, part.text ?? "");
    else this.builder.text(key, part.text ?? "");
    // Gemini wants the signature back on the same part it came with: it stays on this block.
    if (part.thoughtSignature) this.builder.sign(key, part.thoughtSignature);
  }

  private closeCurrent(): void {
    if (this.current) this.builder.end(this.current.key);
    this.current = undefined;
  }

  /** STOP → stop (toolUse with tool calls), MAX_TOKENS → length; SAFETY, RECITATION, … → error. */
  finish(): void {
    this.closeCurrent();
    const reason = this.finishReason;
    if (!reason) {
      const why = this.blockReason ? `Gemini blocked the prompt (${this.blockReason})` : "Gemini's stream ended without a finish reason";
      this.builder.fail(new Error(why), false);
      return;
    }
    if (reason === "STOP") this.builder.finish("stop", reason);
    else if (reason === "MAX_TOKENS") this.builder.finish("length", reason);
    else {
      this.builder.message.rawStopReason = reason;
      this.builder.fail(new Error(`Gemini stopped: ${reason}${this.finishMessage ? ` (${this.finishMessage})` : ""}`), false);
    }
  }
}

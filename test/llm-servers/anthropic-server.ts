/**
 * A scripted Anthropic Messages API (`POST /v1/messages`, `stream: true`) on 127.0.0.1 that speaks
 * the real SSE wire format: message_start, ping, content_block_start/delta/stop, message_delta,
 * message_stop, and `event: error` mid-stream; HTTP errors carry Anthropic's JSON error body.
 *
 *   const server = await startAnthropicServer();
 *   server.enqueue({ blocks: [{ type: "text", chunks: ["Hel", "lo"] }] });
 *   // model.baseUrl = server.baseUrl; apiKey = server.apiKey
 *   server.requests[0].body  // what the SDK sent
 */
import type * as http from "node:http";
import { hang, sendJson, sleep, startWireServer, write, type RecordedRequest } from "./sse-anthropic-google";

export type AnthropicScriptBlock =
  | { type: "text"; chunks: string[] }
  | { type: "thinking"; chunks: string[]; signatureChunks: string[] }
  | { type: "redacted_thinking"; data: string }
  /** `jsonChunks` are sent as input_json_delta pieces, exactly as given. */
  | { type: "tool_use"; id: string; name: string; jsonChunks: string[] };

export interface AnthropicReply {
  kind?: "reply";
  id?: string;
  blocks: AnthropicScriptBlock[];
  /** Default: "tool_use" when there is a tool_use block, else "end_turn". */
  stopReason?: string;
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** Pause before each event (ms). */
  delayMs?: number;
  /** After the blocks, send `event: error` with this error instead of message_delta/message_stop. */
  errorAfterBlocks?: { type: string; message: string };
  /** After the blocks, keep the response open until the client goes away. */
  hangAfterBlocks?: boolean;
}

export interface AnthropicHttpError {
  kind: "http-error";
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

export type AnthropicTurn = AnthropicReply | AnthropicHttpError;

export interface AnthropicServer {
  /** What a model's baseUrl should be (the SDK appends /v1/messages). */
  baseUrl: string;
  apiKey: string;
  requests: RecordedRequest[];
  enqueue(...turns: AnthropicTurn[]): void;
  close(): Promise<void>;
}

export async function startAnthropicServer(apiKey = "sk-ant-test-key"): Promise<AnthropicServer> {
  const queue: AnthropicTurn[] = [];
  const wire = await startWireServer(async (request, res) => {
    if (request.method !== "POST" || request.url !== "/v1/messages") {
      return sendJson(res, 404, errorBody("not_found_error", `Unknown route ${request.method} ${request.url}`));
    }
    if (request.headers["x-api-key"] !== apiKey) {
      return sendJson(res, 401, errorBody("authentication_error", "invalid x-api-key"));
    }
    if (!request.headers["anthropic-version"]) {
      return sendJson(res, 400, errorBody("invalid_request_error", "anthropic-version header is required"));
    }
    const turn = queue.shift();
    if (!turn) return sendJson(res, 500, errorBody("api_error", "anthropic-server: script exhausted"));
    if (turn.kind === "http-error") {
      return sendJson(res, turn.status, errorBody(turn.type, turn.message), { "request-id": "req_test_1", ...turn.headers });
    }
    await streamReply(request, res, turn);
  });
  return {
    baseUrl: wire.origin,
    apiKey,
    requests: wire.requests,
    enqueue: (...turns) => queue.push(...turns),
    close: () => wire.close(),
  };
}

function errorBody(type: string, message: string) {
  return { type: "error", error: { type, message }, request_id: "req_test_1" };
}

async function streamReply(request: RecordedRequest, res: http.ServerResponse, reply: AnthropicReply): Promise<void> {
  const body = (request.body ?? {}) as { model?: string };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_test_1" });
  const send = async (event: string, data: unknown) => {
    if (reply.delayMs) await sleep(reply.delayMs);
    return write(res, `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const usage = reply.usage ?? { input: 10, output: 5 };
  const cacheUsage = { cache_creation_input_tokens: usage.cacheWrite ?? 0, cache_read_input_tokens: usage.cacheRead ?? 0 };
  await send("message_start", {
    type: "message_start",
    message: {
      id: reply.id ?? "msg_test_1",
      type: "message",
      role: "assistant",
      model: body.model ?? "claude-test",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, ...cacheUsage, output_tokens: 1 },
    },
  });
  await send("ping", { type: "ping" });
  for (const [index, block] of reply.blocks.entries()) {
    if (!(await sendBlock(send, index, block))) return;
  }
  if (reply.hangAfterBlocks) return hang(request);
  if (reply.errorAfterBlocks) {
    await send("error", { type: "error", error: reply.errorAfterBlocks });
    res.end();
    return;
  }
  const stopReason = reply.stopReason ?? (reply.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  await send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { input_tokens: usage.input, ...cacheUsage, output_tokens: usage.output },
  });
  await send("message_stop", { type: "message_stop" });
  res.end();
}

type Send = (event: string, data: unknown) => Promise<boolean>;

async function sendBlock(send: Send, index: number, block: AnthropicScriptBlock): Promise<boolean> {
  const delta = (d: Record<string, unknown>) => send("content_block_delta", { type: "content_block_delta", index, delta: d });
  let ok = true;
  if (block.type === "text") {
    ok = await send("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const text of block.chunks) ok = ok && (await delta({ type: "text_delta", text }));
  } else if (block.type === "thinking") {
    ok = await send("content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const thinking of block.chunks) ok = ok && (await delta({ type: "thinking_delta", thinking }));
    for (const signature of block.signatureChunks) ok = ok && (await delta({ type: "signature_delta", signature }));
  } else if (block.type === "redacted_thinking") {
    ok = await send("content_block_start", { type: "content_block_start", index, content_block: { type: "redacted_thinking", data: block.data } });
  } else {
    ok = await send("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
    });
    for (const partial_json of block.jsonChunks) ok = ok && (await delta({ type: "input_json_delta", partial_json }));
  }
  return ok && (await send("content_block_stop", { type: "content_block_stop", index }));
}

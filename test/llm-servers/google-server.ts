/**
 * A scripted Gemini API (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`) on 127.0.0.1
 * that speaks the real wire format: `data: {GenerateContentResponse}` events separated by CRLF
 * pairs, whole parts (text, `thought: true` parts, functionCall parts with whole args, thought
 * signatures), finishReason and usageMetadata on the last chunk; an error mid-stream is the bare
 * JSON error body Google writes into the stream; HTTP errors carry Google's JSON error body.
 *
 *   const server = await startGoogleServer();
 *   server.enqueue({ chunks: [[{ text: "Hel" }], [{ text: "lo" }]] });
 *   // model.baseUrl = server.baseUrl ("http://127.0.0.1:PORT/v1beta"); apiKey = server.apiKey
 */
import type * as http from "node:http";
import { hang, sendJson, sleep, startWireServer, write, type RecordedRequest } from "./sse-anthropic-google";

export type GooglePart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { functionCall: { name: string; args: Record<string, unknown>; id?: string }; thoughtSignature?: string };

export interface GoogleReply {
  kind?: "reply";
  /** One array of parts per streamed chunk. */
  chunks: GooglePart[][];
  /** Default "STOP". */
  finishReason?: string;
  finishMessage?: string;
  usage?: { prompt: number; candidates: number; thoughts?: number; cached?: number };
  responseId?: string;
  delayMs?: number;
  /** After the chunks, write Google's bare JSON error body into the stream and end it. */
  errorAfterChunks?: { code: number; status: string; message: string };
  /** After the chunks, keep the response open until the client goes away. */
  hangAfterChunks?: boolean;
}

export interface GoogleHttpError {
  kind: "http-error";
  status: number;
  /** Google's status name, e.g. RESOURCE_EXHAUSTED. */
  statusName: string;
  message: string;
}

export type GoogleTurn = GoogleReply | GoogleHttpError;

export interface GoogleServer {
  /** What a model's baseUrl should be: the origin plus the API version. */
  baseUrl: string;
  apiKey: string;
  requests: RecordedRequest[];
  enqueue(...turns: GoogleTurn[]): void;
  close(): Promise<void>;
}

const route = /^\/v1beta\/models\/([^/:]+):streamGenerateContent\?alt=sse$/;

export async function startGoogleServer(apiKey = "google-test-key"): Promise<GoogleServer> {
  const queue: GoogleTurn[] = [];
  const wire = await startWireServer(async (request, res) => {
    const match = route.exec(request.url);
    if (request.method !== "POST" || !match) {
      return sendJson(res, 404, errorBody(404, "NOT_FOUND", `Unknown route ${request.method} ${request.url}`));
    }
    if (request.headers["x-goog-api-key"] !== apiKey) {
      return sendJson(res, 400, errorBody(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."));
    }
    const turn = queue.shift();
    if (!turn) return sendJson(res, 500, errorBody(500, "INTERNAL", "google-server: script exhausted"));
    if (turn.kind === "http-error") return sendJson(res, turn.status, errorBody(turn.status, turn.statusName, turn.message));
    await streamReply(request, res, decodeURIComponent(match[1]), turn);
  });
  return {
    baseUrl: `${wire.origin}/v1beta`,
    apiKey,
    requests: wire.requests,
    enqueue: (...turns) => queue.push(...turns),
    close: () => wire.close(),
  };
}

function errorBody(code: number, status: string, message: string) {
  return { error: { code, message, status } };
}

async function streamReply(request: RecordedRequest, res: http.ServerResponse, model: string, reply: GoogleReply): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "x-content-type-options": "nosniff" });
  const responseId = reply.responseId ?? "resp-test-1";
  const last = reply.chunks.length - 1;
  const ending = !reply.errorAfterChunks && !reply.hangAfterChunks;
  for (const [index, parts] of reply.chunks.entries()) {
    if (reply.delayMs) await sleep(reply.delayMs);
    const final = ending && index === last;
    const candidate: Record<string, unknown> = { content: { parts, role: "model" }, index: 0 };
    if (final) {
      candidate.finishReason = reply.finishReason ?? "STOP";
      if (reply.finishMessage) candidate.finishMessage = reply.finishMessage;
    }
    const chunk: Record<string, unknown> = { candidates: [candidate], modelVersion: model, responseId };
    if (final) chunk.usageMetadata = usageMetadata(reply.usage ?? { prompt: 10, candidates: 5 });
    if (!(await write(res, `data: ${JSON.stringify(chunk)}\r\n\r\n`))) return;
  }
  if (reply.hangAfterChunks) return hang(request);
  if (reply.errorAfterChunks) {
    // Google writes the error as a bare JSON body, in its own network chunk.
    await sleep(30);
    const { code, status, message } = reply.errorAfterChunks;
    await write(res, JSON.stringify(errorBody(code, status, message), null, 2));
  }
  res.end();
}

function usageMetadata(usage: NonNullable<GoogleReply["usage"]>) {
  const thoughts = usage.thoughts ?? 0;
  return {
    promptTokenCount: usage.prompt,
    candidatesTokenCount: usage.candidates,
    totalTokenCount: usage.prompt + usage.candidates + thoughts,
    ...(usage.thoughts !== undefined ? { thoughtsTokenCount: thoughts } : {}),
    ...(usage.cached !== undefined ? { cachedContentTokenCount: usage.cached } : {}),
  };
}

/**
 * The gateway's VS Code models endpoint (plain node:http, no vscode): OpenAI's chat completions
 * in front of an LmBackend, so any agent with an `openai-completions` provider (our host, pi,
 * omp) uses VS Code's models through the gateway's token, and never sees VS Code itself.
 *
 *   POST <gateway>/vscode-lm/v1/chat/completions   streamed (SSE) or whole
 *   GET  <gateway>/vscode-lm/v1/models
 *
 * Each part the model streams is written as one chunk as it comes (no work over the whole
 * answer per delta); the agent closing the request aborts the model's. Failures are OpenAI's
 * error shape: before the stream with the mapped status, within it as an `error` chunk (which the
 * OpenAI SDK throws as an APIError).
 */
import type * as http from "node:http";
import type { LocalHandler } from "../gateway/gateway-server";
import { LmError, type LmBackend } from "./lm-backend";
import { messageText, readChatCompletionsRequest } from "./openai-request";
import { errorText } from "../../shared/error-text";
import { readRequestText } from "../../shared/node/request-body";

/** Images in a request are base64: room for a few screenshots, not for anything unbounded. */
const maxBody = 64 * 1024 * 1024;

const statusOf: Record<LmError["code"], { status: number; type: string }> = {
  BadRequest: { status: 400, type: "invalid_request_error" },
  NoPermissions: { status: 403, type: "permission_error" }, // the user did not allow the model (VS Code's consent)
  NotFound: { status: 404, type: "not_found_error" },
  Blocked: { status: 429, type: "rate_limit_error" }, // VS Code's quota / blocked request
  Cancelled: { status: 499, type: "cancelled" },
  Unknown: { status: 502, type: "api_error" },
};

function errorBody(error: unknown): { status: number; body: { error: { message: string; type: string; code: string } } } {
  const lm = error instanceof LmError ? error : new LmError("Unknown", errorText(error));
  const { status, type } = statusOf[lm.code];
  return { status, body: { error: { message: lm.message, type, code: lm.code } } };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const text = await readRequestText(req, maxBody);
  if (text === undefined) throw new LmError("BadRequest", `the request is over ${maxBody} bytes`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LmError("BadRequest", "the body is not JSON");
  }
}

export function createLmEndpoint(backend: LmBackend): LocalHandler {
  return async (req, res, path) => {
    const route = path.split("?")[0]!.replace(/\/+$/, "");
    if (req.method === "GET" && route === "/v1/models") {
      const models = await backend.models().catch(() => []); // none offered: an empty list
      sendJson(res, 200, { object: "list", data: models.map((m) => ({ id: m.id, object: "model", created: 0, owned_by: m.vendor })) });
      return;
    }
    if (req.method !== "POST" || route !== "/v1/chat/completions") return sendJson(res, 404, { error: { message: `no ${req.method} ${route} here`, type: "not_found_error", code: "NotFound" } });
    // The agent closing its request (abort, crash) cancels the model's.
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    let streaming = false;
    try {
      const parsed = readChatCompletionsRequest(await readBody(req));
      const parts = await backend.chat(parsed.model, parsed.request, abort.signal);
      const id = `chatcmpl-vscode-${Date.now().toString(36)}`;
      const created = Math.floor(Date.now() / 1000);
      const answer: string[] = [];
      const calls: { id: string; type: "function"; function: { name: string; arguments: string } }[] = [];
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: parsed.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      if (parsed.stream) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        streaming = true;
        res.write(chunk({ role: "assistant", content: "" }));
      }
      for await (const part of parts) {
        if (abort.signal.aborted) return;
        if (part.type === "text") {
          if (!part.text) continue;
          answer.push(part.text);
          if (streaming) res.write(chunk({ content: part.text }));
        } else {
          const call = { id: part.id, type: "function" as const, function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } };
          if (streaming) res.write(chunk({ tool_calls: [{ index: calls.length, ...call }] }));
          calls.push(call);
        }
      }
      const finish = calls.length > 0 ? "tool_calls" : "stop";
      const usage = parsed.includeUsage || !parsed.stream ? await countUsage(backend, parsed.model, parsed.request.messages.map(messageText), answer, calls, abort.signal) : undefined;
      if (!streaming) {
        const message = { role: "assistant", content: answer.length ? answer.join("") : null, ...(calls.length ? { tool_calls: calls } : {}) };
        return sendJson(res, 200, { id, object: "chat.completion", created, model: parsed.model, choices: [{ index: 0, message, finish_reason: finish }], usage });
      }
      res.write(chunk({}, finish));
      if (usage) res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: parsed.model, choices: [], usage })}\n\n`);
      res.end("data: [DONE]\n\n");
    } catch (error) {
      if (abort.signal.aborted) return; // nobody is listening
      const { status, body } = errorBody(error);
      if (!streaming) return sendJson(res, status, body);
      res.end(`data: ${JSON.stringify(body)}\n\n`);
    }
  };
}

/** Token counts by the model's own tokenizer: the messages one by one, the answer once at the end. */
async function countUsage(backend: LmBackend, model: string, inputTexts: string[], answer: string[], calls: { function: { name: string; arguments: string } }[], signal: AbortSignal) {
  const output = [answer.join(""), ...calls.map((c) => `${c.function.name} ${c.function.arguments}`)].filter(Boolean);
  try {
    const [prompt, completion] = await Promise.all([backend.countTokens(model, inputTexts, signal), output.length ? backend.countTokens(model, output, signal) : Promise.resolve(0)]);
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  } catch {
    return undefined; // a model that cannot count: no usage rather than a wrong one
  }
}

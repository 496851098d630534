/**
 * A scripted stand-in for an OpenAI chat-completions endpoint (streaming SSE), for tests that
 * drive real agents offline. Listens on 127.0.0.1 on a random port.
 *
 *   const llm = await startMockLlm();
 *   llm.enqueue({ text: ["Hel", "lo"] }, { toolCalls: [{ name: "read", arguments: { path: "a" } }] });
 *   // agent config: baseUrl = llm.baseUrl ("http://127.0.0.1:PORT/v1"), api "openai-completions"
 *   llm.requests[0].body.messages ...
 *   llm.close();
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface MockToolCall {
  /** Tool-call id; default `call_<n>`. */
  id?: string;
  name: string;
  /** Object (JSON-encoded here) or a raw arguments string (may be invalid JSON on purpose). */
  arguments: JsonObject | string;
  /** How many chunks the arguments string is split into (default 3). */
  argumentChunks?: number;
}

export interface MockUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

/** A normal streamed reply: optional reasoning, text chunks, then tool calls. */
export interface MockReplyTurn {
  kind?: "reply";
  /** Reasoning chunks, sent as `delta.reasoning_content` before the text. */
  reasoning?: string[];
  /** Text; a string is sent as one chunk, an array chunk by chunk. */
  text?: string | string[];
  toolCalls?: MockToolCall[];
  usage?: MockUsage;
  /** Delay before each chunk (ms). */
  delayMs?: number;
  /** With `delayMs`: the delay comes before every this many chunks instead (default 1), so a long stream of small deltas is sent in short bursts. */
  chunksPerDelay?: number;
  /** Default "tool_calls" when there are tool calls, else "stop". */
  finishReason?: string;
  /** Stream the chunks, then keep the response open until the client goes away. */
  hangAfterChunks?: boolean;
  /** Stream the chunks, then wait for this before the end: the run stays open until the test has done what needs it running. */
  holdEndUntil?: Promise<unknown>;
}

/** A gate for `holdEndUntil`: the reply's end waits until `open()`. */
export function endGate(): { until: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}

/** An HTTP error with a JSON body `{error:{message,type,code}}`. */
export interface MockErrorTurn {
  kind: "error";
  status: number;
  message?: string;
  /** Overrides the default JSON body. */
  body?: JsonValue;
  headers?: Record<string, string>;
}

/** Send the SSE headers, then nothing, until the client aborts. */
export interface MockHangTurn {
  kind: "hang";
}

export type MockTurn = MockReplyTurn | MockErrorTurn | MockHangTurn;
/** A turn, or a function choosing one from the request (called when the request arrives). */
export type MockScriptItem = MockTurn | ((request: RecordedRequest) => MockTurn);

export interface ChatMessage {
  role: string;
  content?: JsonValue;
  tool_calls?: JsonValue;
  tool_call_id?: string;
  name?: string;
  [key: string]: unknown;
}

export interface ChatRequestBody {
  model?: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: JsonValue } }[];
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** 0-based index among chat-completion requests. */
  index: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: ChatRequestBody;
  /** Which turn answered it ("default" when the script had run out). */
  answeredWith: MockTurn["kind"] | "default";
  /** True when the client closed the connection before the response finished. */
  aborted: boolean;
  /** True once the response finished or was aborted. */
  done: boolean;
}

export interface MockLlmOptions {
  /** Reply used when the script has run out (default text "OK."). */
  defaultTurn?: MockTurn;
  /** Model ids listed by GET /v1/models (default ["mock"]). */
  models?: string[];
}

export interface MockLlm {
  /** e.g. "http://127.0.0.1:41234/v1" */
  readonly baseUrl: string;
  readonly port: number;
  /** Chat-completion requests received, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Turns not used yet. */
  readonly pending: number;
  enqueue(...turns: MockScriptItem[]): void;
  /** Drops the turns not used yet (what a failed test left for the next one); returns how many. */
  discardPending(): number;
  /** Resolves when at least `count` chat requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Resolves when request `index` has finished or was aborted. */
  waitForDone(index: number, timeoutMs?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
  dispose(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Splits `s` into `n` roughly equal non-empty pieces (fewer when `s` is short). */
export function splitChunks(s: string, n: number): string[] {
  if (s.length === 0) return [""];
  const count = Math.max(1, Math.min(n, s.length));
  const size = Math.ceil(s.length / count);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** The `role:"tool"` messages of a request (what the agent sent back as tool results). */
export function toolResultMessages(request: RecordedRequest): ChatMessage[] {
  return request.body.messages.filter((m) => m.role === "tool");
}

/** Names of the tools offered to the model in a request. */
export function toolNames(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((t) => t.function.name);
}

/** Text of a message's content, whether a string or an array of `{type:"text",text}` parts. */
export function messageText(message: ChatMessage): string {
  const c = message.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) {
    return c
      .map((p) => (p && typeof p === "object" && !Array.isArray(p) && typeof p.text === "string" ? p.text : ""))
      .join("");
  }
  return "";
}

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const script: MockScriptItem[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const defaultTurn: MockTurn = options.defaultTurn ?? { text: "OK." };
  const models = options.models ?? ["mock"];
  let callCounter = 0;

  const notify = (): void => {
    for (const w of [...waiters]) w();
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(err), type: "mock_internal" } }));
    });
  });

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    return Buffer.concat(parts).toString("utf8");
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "GET" && /\/models\/?$/.test(path)) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "mock" })) }));
      return;
    }
    if (req.method !== "POST" || !/\/chat\/completions\/?$/.test(path)) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `mock-llm: no route ${req.method} ${path}`, type: "not_found" } }));
      return;
    }
    const raw = await readBody(req);
    let body: ChatRequestBody;
    try {
      body = JSON.parse(raw) as ChatRequestBody;
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "mock-llm: body is not JSON", type: "invalid_request_error" } }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
    const record: RecordedRequest = {
      index: requests.length,
      method: req.method,
      path,
      headers,
      body: { ...body, messages: Array.isArray(body.messages) ? body.messages : [] },
      answeredWith: "default",
      aborted: false,
      done: false,
    };
    requests.push(record);
    const item = script.shift();
    const turn: MockTurn = item === undefined ? defaultTurn : typeof item === "function" ? item(record) : item;
    if (item !== undefined) record.answeredWith = turn.kind ?? "reply";
    let closed = false;
    res.on("close", () => {
      if (!res.writableFinished) {
        closed = true;
        record.aborted = true;
      }
      record.done = true;
      notify();
    });
    notify();
    await answer(turn, record, res, () => closed);
  }

  async function answer(turn: MockTurn, record: RecordedRequest, res: http.ServerResponse, isClosed: () => boolean): Promise<void> {
    if (turn.kind === "error") {
      const body = turn.body ?? { error: { message: turn.message ?? `mock error ${turn.status}`, type: "server_error", code: turn.status } };
      res.writeHead(turn.status, { "content-type": "application/json", ...turn.headers });
      res.end(JSON.stringify(body));
      return;
    }
    const id = `chatcmpl-mock-${record.index}`;
    const model = record.body.model ?? "mock";
    const created = Math.floor(Date.now() / 1000);
    if (turn.kind === "hang") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      res.flushHeaders();
      return; // stays open until the client aborts (or close() destroys it)
    }
    const calls = (turn.toolCalls ?? []).map((c) => ({
      id: c.id ?? `call_${++callCounter}`,
      name: c.name,
      args: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
      chunks: c.argumentChunks ?? 3,
    }));
    const finishReason = turn.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop");
    const textChunks = turn.text === undefined ? [] : typeof turn.text === "string" ? [turn.text] : turn.text;
    const usage = turn.usage
      ? {
          prompt_tokens: turn.usage.promptTokens,
          completion_tokens: turn.usage.completionTokens,
          total_tokens: turn.usage.promptTokens + turn.usage.completionTokens,
          ...(turn.usage.cachedTokens !== undefined ? { prompt_tokens_details: { cached_tokens: turn.usage.cachedTokens } } : {}),
        }
      : undefined;

    if (record.body.stream !== true) {
      const message: JsonObject = { role: "assistant", content: textChunks.join("") || null };
      if (calls.length > 0) {
        message.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } }));
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: finishReason }], ...(usage ? { usage } : {}) }));
      return;
    }

    const deltas: JsonObject[] = [{ role: "assistant", content: "" }];
    for (const r of turn.reasoning ?? []) deltas.push({ reasoning_content: r });
    for (const t of textChunks) deltas.push({ content: t });
    calls.forEach((c, index) => {
      const parts = splitChunks(c.args, c.chunks);
      deltas.push({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
      for (const p of parts) deltas.push({ tool_calls: [{ index, function: { arguments: p } }] });
    });

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send = (payload: JsonObject): void => {
      res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, ...payload })}\n\n`);
    };
    const burst = Math.max(1, turn.chunksPerDelay ?? 1);
    for (const [i, delta] of deltas.entries()) {
      if (turn.delayMs && i % burst === 0) await sleep(turn.delayMs);
      if (isClosed()) return;
      send({ choices: [{ index: 0, delta, finish_reason: null }] });
    }
    if (turn.hangAfterChunks) return;
    if (turn.holdEndUntil) await turn.holdEndUntil;
    if (turn.delayMs) await sleep(turn.delayMs);
    if (isClosed()) return;
    send({ choices: [{ index: 0, delta: {}, finish_reason: finishReason }] });
    if (usage) send({ choices: [], usage });
    res.end("data: [DONE]\n\n");
  }

  function waitFor<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const done = (): boolean => {
        const v = check();
        if (v === undefined) return false;
        waiters.delete(tick);
        clearTimeout(timer);
        resolve(v);
        return true;
      };
      const tick = (): void => void done();
      const timer = setTimeout(() => {
        waiters.delete(tick);
        reject(new Error(`mock-llm: timed out after ${timeoutMs} ms waiting for ${what} (got ${requests.length} request(s))`));
      }, timeoutMs);
      waiters.add(tick);
      done();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  const llm: MockLlm = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    get pending() {
      return script.length;
    },
    enqueue(...turns) {
      script.push(...turns);
    },
    discardPending() {
      return script.splice(0).length;
    },
    waitForRequests(count, timeoutMs = 10_000) {
      return waitFor(() => (requests.length >= count ? [...requests] : undefined), timeoutMs, `${count} request(s)`);
    },
    waitForDone(index, timeoutMs = 10_000) {
      return waitFor(() => (requests[index]?.done ? requests[index] : undefined), timeoutMs, `request #${index} to finish`);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
    dispose() {
      return llm.close();
    },
  };
  return llm;
}

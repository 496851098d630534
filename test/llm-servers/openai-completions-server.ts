/**
 * A scripted OpenAI Chat Completions server: `POST /v1/chat/completions` with `stream: true`,
 * answered in the real wire format (chat.completion.chunk events, tool calls streamed by index,
 * a usage chunk when `stream_options.include_usage` asks for it, `data: [DONE]`).
 *
 *   const server = await startCompletionsServer();
 *   server.enqueue({ text: ["Hel", "lo"] }, { toolCalls: [{ name: "read", arguments: { path: "a" } }] });
 *   // model.baseUrl = server.baseUrl; server.requests[0].body.messages …
 */
import { type ScriptedServer, sendJson, sleep, splitInto, SseWriter, startScriptedServer } from "./sse";

export interface CompletionsToolCall {
  id?: string;
  name: string;
  /** An object (sent as JSON) or the raw arguments string. */
  arguments: Record<string, unknown> | string;
  /** How many chunks the arguments are split into (default 3). */
  chunks?: number;
}

export interface CompletionsReply {
  kind?: "reply";
  /** Reasoning deltas, sent before the text in `reasoningField`. */
  reasoning?: string[];
  reasoningField?: "reasoning_content" | "reasoning" | "reasoning_text";
  /** Text deltas. */
  text?: string[];
  toolCalls?: CompletionsToolCall[];
  /** Send the argument chunks of all calls round-robin instead of one call after the other. */
  interleaveToolCalls?: boolean;
  /** Default "tool_calls" with tool calls, else "stop"; null sends none. */
  finishReason?: string | null;
  usage?: { prompt: number; completion: number; cached?: number; reasoning?: number };
  /** Pause before each chunk (ms). */
  delayMs?: number;
  /**
   * After the chunks: "done" (default) sends `[DONE]`, "drop" cuts the connection, "hang" keeps it
   * open until the client leaves, `{ error }` sends a chunk with an error object (as OpenAI does).
   */
  end?: "done" | "drop" | "hang" | { error: { message: string; type?: string; code?: string } };
}

export interface CompletionsHttpError {
  kind: "http-error";
  status: number;
  /** JSON body (an object) or plain text (a string). Default `{ error: { message, type, code } }`. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type CompletionsTurn = CompletionsReply | CompletionsHttpError;

export function startCompletionsServer(): Promise<ScriptedServer<CompletionsTurn>> {
  let counter = 0;
  return startScriptedServer<CompletionsTurn>({
    route: /\/chat\/completions\/?$/,
    defaultTurn: { text: ["OK."] },
    async respond(turn, request, res) {
      if (turn.kind === "http-error") {
        const body = turn.body ?? { error: { message: `HTTP ${turn.status}`, type: "server_error", code: null } };
        return sendJson(res, turn.status, body, turn.headers);
      }
      const id = `chatcmpl-${++counter}`;
      const model = String(request.body.model ?? "mock");
      const sse = new SseWriter(res);
      const chunk = async (delta: Record<string, unknown>, finishReason: string | null = null) => {
        if (turn.delayMs) await sleep(turn.delayMs);
        await sse.send({ id, object: "chat.completion.chunk", created: 1_700_000_000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
      };
      await chunk({ role: "assistant", content: "" });
      for (const piece of turn.reasoning ?? []) await chunk({ [turn.reasoningField ?? "reasoning_content"]: piece });
      for (const piece of turn.text ?? []) await chunk({ content: piece });
      await sendToolCalls(turn, counter, chunk);
      if (typeof turn.end === "object") {
        await sse.send({ error: { message: turn.end.error.message, type: turn.end.error.type ?? "server_error", param: null, code: turn.end.error.code ?? null } });
        return sse.end();
      }
      if (turn.end === "drop") return sse.drop();
      if (turn.end === "hang") return sse.hang();
      const finishReason = turn.finishReason === undefined ? (turn.toolCalls?.length ? "tool_calls" : "stop") : turn.finishReason;
      if (finishReason !== null) await chunk({}, finishReason);
      const streamOptions = request.body.stream_options as { include_usage?: boolean } | undefined;
      if (streamOptions?.include_usage) {
        const u = turn.usage ?? { prompt: 0, completion: 0 };
        await sse.send({
          id,
          object: "chat.completion.chunk",
          created: 1_700_000_000,
          model,
          choices: [],
          usage: {
            prompt_tokens: u.prompt,
            completion_tokens: u.completion,
            total_tokens: u.prompt + u.completion,
            prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
            completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
          },
        });
      }
      await sse.raw("data: [DONE]\n\n");
      sse.end();
    },
  });
}

type Chunk = (delta: Record<string, unknown>) => Promise<void>;

/** The first chunk of a call carries index, id, type and name; the next ones only argument pieces. */
async function sendToolCalls(turn: CompletionsReply, reply: number, chunk: Chunk): Promise<void> {
  const calls = (turn.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id ?? `call_${reply}_${index}`,
    name: call.name,
    pieces: splitInto(typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments), call.chunks ?? 3),
  }));
  const head = (c: (typeof calls)[number]) => chunk({ tool_calls: [{ index: c.index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
  const piece = (c: (typeof calls)[number], p: string) => chunk({ tool_calls: [{ index: c.index, function: { arguments: p } }] });
  if (!turn.interleaveToolCalls) {
    for (const c of calls) {
      await head(c);
      for (const p of c.pieces) await piece(c, p);
    }
    return;
  }
  for (const c of calls) await head(c);
  const rounds = Math.max(0, ...calls.map((c) => c.pieces.length));
  for (let i = 0; i < rounds; i++) for (const c of calls) if (c.pieces[i] !== undefined) await piece(c, c.pieces[i]);
}

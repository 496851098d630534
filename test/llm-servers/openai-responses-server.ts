/**
 * A scripted OpenAI Responses server: `POST /v1/responses` with `stream: true`, answered with the
 * real event sequence (response.created, output_item.added, reasoning summary / output text /
 * function-call argument deltas, output_item.done, response.completed with usage), each event
 * with its `event:` name and sequence_number.
 */
import { type ScriptedServer, sendJson, sleep, splitInto, SseWriter, startScriptedServer } from "./sse";

export interface ResponsesReply {
  kind?: "reply";
  /** One reasoning item: summary parts, each a list of deltas, and its encrypted content. */
  reasoning?: { summary: string[][]; encrypted?: string };
  /** Text deltas of one message item. */
  text?: string[];
  toolCalls?: { callId?: string; name: string; arguments: Record<string, unknown> | string; chunks?: number }[];
  usage?: { input: number; output: number; cached?: number; reasoning?: number };
  /** "incomplete" needs `incompleteReason` (e.g. "max_output_tokens"). */
  status?: "completed" | "incomplete";
  incompleteReason?: string;
  delayMs?: number;
  /**
   * After the output items: "completed" (default) sends response.completed or .incomplete,
   * "drop" cuts the connection, "hang" waits for the client to leave, `{ failed }` sends
   * response.failed, `{ error }` an `error` event.
   */
  end?: "completed" | "drop" | "hang" | { failed: { code: string; message: string } } | { error: { code: string; message: string } };
}

export interface ResponsesHttpError {
  kind: "http-error";
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type ResponsesTurn = ResponsesReply | ResponsesHttpError;

type Item = Record<string, unknown>;

export function startResponsesServer(): Promise<ScriptedServer<ResponsesTurn>> {
  let counter = 0;
  return startScriptedServer<ResponsesTurn>({
    route: /\/responses\/?$/,
    defaultTurn: { text: ["OK."] },
    async respond(turn, request, res) {
      if (turn.kind === "http-error") {
        return sendJson(res, turn.status, turn.body ?? { error: { message: `HTTP ${turn.status}`, type: "server_error", code: null } }, turn.headers);
      }
      const n = ++counter;
      const sse = new SseWriter(res);
      let sequence = 0;
      const emit = async (type: string, fields: Record<string, unknown>) => {
        if (turn.delayMs) await sleep(turn.delayMs);
        await sse.send({ type, sequence_number: sequence++, ...fields }, type);
      };
      const output: Item[] = [];
      const response = (status: string, extra: Record<string, unknown> = {}) => ({
        id: `resp_${n}`,
        object: "response",
        created_at: 1_700_000_000,
        status,
        model: String(request.body.model ?? "mock"),
        output,
        ...extra,
      });
      await emit("response.created", { response: response("in_progress") });
      await emit("response.in_progress", { response: response("in_progress") });

      if (turn.reasoning) {
        const output_index = output.length;
        const id = `rs_${n}`;
        await emit("response.output_item.added", { output_index, item: { type: "reasoning", id, summary: [] } });
        const summary: Item[] = [];
        for (const [summary_index, deltas] of turn.reasoning.summary.entries()) {
          const at = { item_id: id, output_index, summary_index };
          await emit("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
          for (const delta of deltas) await emit("response.reasoning_summary_text.delta", { ...at, delta });
          const text = deltas.join("");
          await emit("response.reasoning_summary_text.done", { ...at, text });
          await emit("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text } });
          summary.push({ type: "summary_text", text });
        }
        const item = { type: "reasoning", id, summary, ...(turn.reasoning.encrypted ? { encrypted_content: turn.reasoning.encrypted } : {}) };
        output.push(item);
        await emit("response.output_item.done", { output_index, item });
      }

      if (turn.text) {
        const output_index = output.length;
        const id = `msg_${n}`;
        await emit("response.output_item.added", { output_index, item: { type: "message", id, status: "in_progress", role: "assistant", content: [] } });
        const at = { item_id: id, output_index, content_index: 0 };
        await emit("response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [] } });
        for (const delta of turn.text) await emit("response.output_text.delta", { ...at, delta, logprobs: [] });
        const text = turn.text.join("");
        await emit("response.output_text.done", { ...at, text, logprobs: [] });
        const part = { type: "output_text", text, annotations: [] };
        await emit("response.content_part.done", { ...at, part });
        const item = { type: "message", id, status: "completed", role: "assistant", content: [part] };
        output.push(item);
        await emit("response.output_item.done", { output_index, item });
      }

      for (const [i, call] of (turn.toolCalls ?? []).entries()) {
        const output_index = output.length;
        const id = `fc_${n}_${i}`;
        const base = { type: "function_call", id, call_id: call.callId ?? `call_${n}_${i}`, name: call.name };
        const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
        await emit("response.output_item.added", { output_index, item: { ...base, arguments: "", status: "in_progress" } });
        for (const delta of splitInto(args, call.chunks ?? 3)) await emit("response.function_call_arguments.delta", { item_id: id, output_index, delta });
        await emit("response.function_call_arguments.done", { item_id: id, output_index, name: call.name, arguments: args });
        const item = { ...base, arguments: args, status: "completed" };
        output.push(item);
        await emit("response.output_item.done", { output_index, item });
      }

      if (turn.end === "drop") return sse.drop();
      if (turn.end === "hang") return sse.hang();
      if (typeof turn.end === "object" && "error" in turn.end) {
        await emit("error", { code: turn.end.error.code, message: turn.end.error.message, param: null });
        return sse.end();
      }
      if (typeof turn.end === "object") {
        await emit("response.failed", { response: response("failed", { error: turn.end.failed }) });
        return sse.end();
      }
      const u = turn.usage ?? { input: 0, output: 0 };
      const usage = {
        input_tokens: u.input,
        input_tokens_details: { cached_tokens: u.cached ?? 0 },
        output_tokens: u.output,
        output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
        total_tokens: u.input + u.output,
      };
      const status = turn.status ?? "completed";
      const final = response(status, { usage, incomplete_details: status === "incomplete" ? { reason: turn.incompleteReason } : null });
      await emit(status === "incomplete" ? "response.incomplete" : "response.completed", { response: final });
      sse.end();
    },
  });
}

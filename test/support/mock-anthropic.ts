/**
 * A scripted stand-in for the Anthropic Messages API (`POST /v1/messages`, streamed as SSE or
 * not, and `/v1/messages/count_tokens`), for Claude Code based ACP agents run offline
 * (`ANTHROPIC_BASE_URL`). Every answer is chosen by the request's content (`decide`), never by
 * its order: Claude Code also sends side requests (a one-token quota check, session titles, topic
 * detection) that get "OK" unless `decide` says otherwise.
 *
 *   const anthropic = await startMockAnthropic((request) => ({ text: ["Hel", "lo"] }));
 *   // ANTHROPIC_BASE_URL = anthropic.baseUrl
 */
import type * as http from "node:http";
import { sendJson, startScriptedServer, type ScriptedRequest, type ScriptedServer } from "./scripted-server";

export interface AnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | AnthropicBlock[];
}

export type AnthropicRequest = ScriptedRequest<{ model?: string; messages?: AnthropicMessage[]; system?: unknown; tools?: { name: string }[]; stream?: boolean; max_tokens?: number }>;

export interface AnthropicTurn {
  text?: string[];
  toolUses?: { id?: string; name: string; input: Record<string, unknown> }[];
  /** Send the headers, then nothing until the client goes away. */
  hang?: boolean;
  /** Wait this long before the first event. */
  delayMs?: number;
}

export type MockAnthropic = ScriptedServer<AnthropicRequest>;

/** The main conversation's requests: the ones that offer tools (side requests offer none). */
export const isMainRequest = (request: AnthropicRequest): boolean => (request.body.tools ?? []).length > 0;

const blocksOf = (message: AnthropicMessage | undefined): AnthropicBlock[] =>
  !message ? [] : typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;

/** The text of the latest user message that is not only tool results. */
export function lastUserText(request: AnthropicRequest): string {
  const users = (request.body.messages ?? []).filter((m) => m.role === "user" && blocksOf(m).some((b) => b.type === "text"));
  return blocksOf(users.at(-1)).flatMap((b) => (b.type === "text" ? [b.text ?? ""] : [])).join("");
}

/** The tool results in the last message (the answers to the previous turn's tool uses). */
export function toolResults(request: AnthropicRequest): AnthropicBlock[] {
  return blocksOf(request.body.messages?.at(-1)).filter((b) => b.type === "tool_result");
}

/** A tool result's text, whatever its shape (a string or text blocks). */
export function toolResultText(block: AnthropicBlock): string {
  if (typeof block.content === "string") return block.content;
  return Array.isArray(block.content) ? (block.content as AnthropicBlock[]).map((b) => b.text ?? "").join("") : "";
}

const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export async function startMockAnthropic(decide: (request: AnthropicRequest) => AnthropicTurn): Promise<MockAnthropic> {
  let ids = 0;
  function answer(request: AnthropicRequest, res: http.ServerResponse): void {
    if (request.path.endsWith("/count_tokens")) return sendJson(res, 200, { input_tokens: 10 });
    if (!request.path.endsWith("/v1/messages")) return sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `No ${request.path} here` } });
    const turn = isMainRequest(request) ? decide(request) : { text: ["OK"] };
    if (turn.hang) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      return;
    }
    const send = () => (request.body.stream ? stream(request, res, turn) : sendJson(res, 200, message(request, turn)));
    if (turn.delayMs) setTimeout(() => !res.destroyed && send(), turn.delayMs);
    else send();
  }

  function contentOf(turn: AnthropicTurn): AnthropicBlock[] {
    const text = (turn.text ?? []).join("");
    const toolUses = (turn.toolUses ?? []).map((t) => ({ type: "tool_use", id: t.id ?? `toolu_mock_${++ids}`, name: t.name, input: t.input }));
    return [...(text || toolUses.length === 0 ? [{ type: "text", text: text || "OK." }] : []), ...toolUses];
  }

  function message(request: AnthropicRequest, turn: AnthropicTurn, content = contentOf(turn)) {
    const stopReason = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    return { id: `msg_mock_${request.index}`, type: "message", role: "assistant", model: request.body.model ?? "mock", content, stop_reason: stopReason, stop_sequence: null, usage };
  }

  function stream(request: AnthropicRequest, res: http.ServerResponse, turn: AnthropicTurn): void {
    const content = contentOf(turn);
    const whole = message(request, turn, content);
    res.writeHead(200, { "content-type": "text/event-stream" });
    const event = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event("message_start", { message: { ...whole, content: [], stop_reason: null } });
    content.forEach((block, index) => {
      if (block.type === "text") {
        event("content_block_start", { index, content_block: { type: "text", text: "" } });
        const pieces = turn.text?.length ? turn.text : [block.text ?? ""];
        for (const text of pieces) event("content_block_delta", { index, delta: { type: "text_delta", text } });
      } else {
        event("content_block_start", { index, content_block: { ...block, input: {} } });
        event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
      }
      event("content_block_stop", { index });
    });
    event("message_delta", { delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
    event("message_stop", {});
    res.end();
  }

  return startScriptedServer<AnthropicRequest["body"], AnthropicRequest>((base) => base, answer);
}

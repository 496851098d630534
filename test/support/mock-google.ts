/**
 * A scripted stand-in for the Google Generative AI API (`models/*:streamGenerateContent` as SSE,
 * `:generateContent`, `:countTokens`), for gemini-cli run offline. Every answer is chosen by the
 * request's content (`decide`), never by its order: gemini-cli also sends side requests (a JSON
 * routing question before each prompt, token counts, next-speaker checks). A request that wants
 * JSON (`responseMimeType: application/json`) gets an object made from its schema.
 *
 *   const google = await startMockGoogle((request) => ({ text: ["Hel", "lo"] }));
 *   // GOOGLE_GEMINI_BASE_URL = google.baseUrl
 */
import type * as http from "node:http";
import { sendJson, startScriptedServer, type ScriptedRequest, type ScriptedServer } from "./scripted-server";

export interface GooglePart {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: unknown };
}

export interface GoogleContent {
  role?: string;
  parts?: GooglePart[];
}

export interface GoogleRequest extends ScriptedRequest<{ contents?: GoogleContent[]; generationConfig?: Record<string, unknown>; systemInstruction?: GoogleContent; tools?: unknown[] }> {
  /** "streamGenerateContent", "generateContent", "countTokens", ... */
  method: string;
}

export interface GoogleTurn {
  text?: string[];
  functionCalls?: { name: string; args: Record<string, unknown> }[];
  /** Send the headers, then nothing until the client goes away. */
  hang?: boolean;
  /** Wait this long before the first part. */
  delayMs?: number;
}

export type MockGoogle = ScriptedServer<GoogleRequest>;

/** The user's text of the latest user turn (function responses excluded). */
export function lastUserText(request: GoogleRequest): string {
  const users = (request.body.contents ?? []).filter((c) => c.role === "user" && (c.parts ?? []).some((p) => typeof p.text === "string"));
  return (users.at(-1)?.parts ?? []).map((p) => p.text ?? "").join("");
}

/** Function responses since the latest user text (the results of this turn's tool calls). */
export function functionResponses(request: GoogleRequest): GooglePart["functionResponse"][] {
  const contents = request.body.contents ?? [];
  let lastUser = -1;
  contents.forEach((c, i) => {
    if (c.role === "user" && (c.parts ?? []).some((p) => typeof p.text === "string" && !p.functionResponse)) lastUser = i;
  });
  return contents.slice(lastUser + 1).flatMap((c) => (c.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])));
}

/** A value that fits a JSON schema: an enum's first value, "mock" for strings, every required key. */
function fromSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: string | string[]; enum?: unknown[]; properties?: Record<string, unknown>; items?: unknown };
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = String(Array.isArray(s.type) ? s.type[0] : s.type ?? "object").toLowerCase();
  if (type === "string") return "mock";
  if (type === "number" || type === "integer") return 0;
  if (type === "boolean") return false;
  if (type === "array") return [];
  return Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, value]) => [key, fromSchema(value)]));
}

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

export async function startMockGoogle(decide: (request: GoogleRequest) => GoogleTurn): Promise<MockGoogle> {
  function answer(request: GoogleRequest, res: http.ServerResponse): void {
    if (request.method === "countTokens") return sendJson(res, 200, { totalTokens: 10 });
    const config = request.body.generationConfig ?? {};
    if (config.responseMimeType === "application/json") {
      const value = fromSchema(config.responseJsonSchema ?? config.responseSchema);
      return reply(request, res, [{ text: JSON.stringify(value) }]);
    }
    const turn = decide(request);
    if (turn.hang) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      return;
    }
    const partsOut: GooglePart[] = [...(turn.text ?? []).map((text) => ({ text })), ...(turn.functionCalls ?? []).map((functionCall) => ({ functionCall }))];
    const send = () => reply(request, res, partsOut.length ? partsOut : [{ text: "OK." }]);
    if (turn.delayMs) setTimeout(() => !res.destroyed && send(), turn.delayMs);
    else send();
  }

  function reply(request: GoogleRequest, res: http.ServerResponse, partsOut: GooglePart[]): void {
    const candidate = (parts: GooglePart[], last: boolean) => ({ candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }], ...(last ? { usageMetadata: usage } : {}), modelVersion: "mock" });
    if (request.method !== "streamGenerateContent") return sendJson(res, 200, candidate(partsOut, true));
    res.writeHead(200, { "content-type": "text/event-stream" });
    partsOut.forEach((part, i) => res.write(`data: ${JSON.stringify(candidate([part], i === partsOut.length - 1))}\r\n\r\n`));
    res.end();
  }

  return startScriptedServer<GoogleRequest["body"], GoogleRequest>((base) => ({ ...base, method: base.path.split(":").at(-1) ?? "" }), answer);
}

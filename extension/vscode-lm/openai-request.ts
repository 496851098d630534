/**
 * An OpenAI chat-completions request body (what pi's, omp's and our host's `openai-completions`
 * API sends) read into the neutral request of lm-backend.ts. Foreign data: every field is checked
 * here, and what cannot be read is a BadRequest LmError (the endpoint answers 400 in OpenAI's shape).
 */
import { LmError, type LmChatRequest, type LmMessage, type LmPart, type LmToolDeclaration } from "./lm-backend";

export interface ChatCompletionsRequest {
  model: string;
  stream: boolean;
  /** stream_options.include_usage: a last chunk with the token counts. */
  includeUsage: boolean;
  request: LmChatRequest;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function bad(message: string): never {
  throw new LmError("BadRequest", message);
}

/** `data:<mime>;base64,<data>` only: a model behind VS Code cannot fetch a URL for us. */
function imagePart(url: unknown): { type: "image"; mimeType: string; data: Uint8Array } {
  const match = typeof url === "string" ? /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s.exec(url) : null;
  if (!match) bad("image_url: only data: URLs (base64) are accepted");
  return { type: "image", mimeType: match[1]!, data: Buffer.from(match[2]!, "base64") };
}

type ContentPart = { type: "text"; text: string } | { type: "image"; mimeType: string; data: Uint8Array };

/** A message's `content`: a string, null, or an array of text / image_url parts. */
function contentParts(content: unknown, where: string): ContentPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) bad(`${where}.content: not a string or an array`);
  return content.map((part, i): ContentPart => {
    if (!isRecord(part)) bad(`${where}.content[${i}]: not an object`);
    if (part.type === "text" && typeof part.text === "string") return { type: "text", text: part.text };
    if (part.type === "image_url") return imagePart(isRecord(part.image_url) ? part.image_url.url : part.image_url);
    return bad(`${where}.content[${i}]: unsupported part type ${JSON.stringify(part.type)}`);
  });
}

function toolCalls(value: unknown, where: string): LmPart[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) bad(`${where}.tool_calls: not an array`);
  return value.map((call, i): LmPart => {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
    if (!isRecord(call) || typeof call.id !== "string" || !fn || typeof fn.name !== "string") bad(`${where}.tool_calls[${i}]: needs id and function.name`);
    let input: unknown = {};
    if (typeof fn.arguments === "string" && fn.arguments.trim()) {
      try {
        input = JSON.parse(fn.arguments);
      } catch {
        bad(`${where}.tool_calls[${i}].function.arguments: not JSON`);
      }
    }
    return { type: "tool_call", id: call.id, name: fn.name, input: isRecord(input) ? input : { value: input } };
  });
}

/** Appends parts to the last message when it has the same role (vscode.lm wants turns, not fragments). */
function push(messages: LmMessage[], role: LmMessage["role"], parts: LmPart[]): void {
  if (parts.length === 0) return;
  const last = messages[messages.length - 1];
  if (last?.role === role) last.parts.push(...parts);
  else messages.push({ role, parts });
}

function tools(value: unknown): LmToolDeclaration[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) bad("tools: not an array");
  return value.map((tool, i) => {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    if (!fn || typeof fn.name !== "string") bad(`tools[${i}]: needs function.name`);
    return { name: fn.name, description: typeof fn.description === "string" ? fn.description : "", ...(isRecord(fn.parameters) ? { inputSchema: fn.parameters } : {}) };
  });
}

export function readChatCompletionsRequest(body: unknown): ChatCompletionsRequest {
  if (!isRecord(body)) bad("the body is not a JSON object");
  if (typeof body.model !== "string" || !body.model) bad("model: missing");
  if (!Array.isArray(body.messages)) bad("messages: not an array");
  const system: LmPart[] = [];
  const messages: LmMessage[] = [];
  body.messages.forEach((message, i) => {
    const where = `messages[${i}]`;
    if (!isRecord(message)) bad(`${where}: not an object`);
    switch (message.role) {
      case "system":
      case "developer":
        // No system role in vscode.lm (1.100 to 1.139): the instructions lead the first user turn.
        system.push(...contentParts(message.content, where));
        break;
      case "user":
        push(messages, "user", contentParts(message.content, where));
        break;
      case "assistant":
        push(messages, "assistant", [...contentParts(message.content, where).filter((p) => p.type === "text"), ...toolCalls(message.tool_calls, where)]);
        break;
      case "tool":
        if (typeof message.tool_call_id !== "string") bad(`${where}.tool_call_id: missing`);
        push(messages, "user", [{ type: "tool_result", callId: message.tool_call_id, content: contentParts(message.content, where) }]);
        break;
      default:
        bad(`${where}.role: unsupported ${JSON.stringify(message.role)}`);
    }
  });
  if (system.length > 0) {
    const first = messages[0];
    if (first?.role === "user") first.parts.unshift(...system);
    else messages.unshift({ role: "user", parts: system });
  }
  const choice = body.tool_choice;
  const declared = choice === "none" ? [] : tools(body.tools);
  const toolsRequired = declared.length > 0 && (choice === "required" || (isRecord(choice) && choice.type === "function"));
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  return { model: body.model, stream: body.stream === true, includeUsage: streamOptions.include_usage === true, request: { messages, tools: declared, toolsRequired } };
}

/** The text of a message, for countTokens (images and tool calls count as their JSON). */
export function messageText(message: LmMessage): string {
  return message.parts
    .map((part) =>
      part.type === "text" ? part.text
      : part.type === "tool_call" ? `${part.name} ${JSON.stringify(part.input)}`
      : part.type === "tool_result" ? part.content.map((c) => (c.type === "text" ? c.text : "")).join("")
      : "",
    )
    .join("\n");
}

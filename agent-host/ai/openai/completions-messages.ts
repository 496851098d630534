import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from "openai/resources/chat/completions";
import type { AssistantMessage, Context, ImageContent, Model, TextContent, ThinkingContent, Tool, ToolCall, ToolResultMessage } from "../types";
import { toolParameters } from "./client";
import { instructionRole, type ResolvedCompat } from "./compat";
import { chatToolCallId } from "./ids";

/** Fields OpenAI-compatible servers use for reasoning text, in the order we look for them. */
export const reasoningFields = ["reasoning_content", "reasoning", "reasoning_text"] as const;
export type ReasoningField = (typeof reasoningFields)[number];

/** An assistant message as compatible servers accept it back: OpenAI's, plus a reasoning field. */
type AssistantParam = ChatCompletionAssistantMessageParam & Partial<Record<ReasoningField, string>>;

const imageOmitted = "(image omitted: this model does not accept images)";

/** Converts the conversation to Chat Completions messages. */
export function convertChatMessages(model: Model, context: Context, compat: ResolvedCompat): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const acceptsImages = model.input.includes("image");
  if (context.systemPrompt) out.push({ role: instructionRole(model, compat.supportsDeveloperRole), content: context.systemPrompt });
  const messages = context.messages;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === "user") {
      if (compat.requiresAssistantAfterToolResult && out.at(-1)?.role === "tool") out.push({ role: "assistant", content: "I have processed the tool results." });
      if (typeof message.content === "string") {
        out.push({ role: "user", content: message.content });
        continue;
      }
      const parts = message.content.flatMap((part) => userPart(part, acceptsImages));
      if (parts.length > 0) out.push({ role: "user", content: parts });
    } else if (message.role === "assistant") {
      const converted = converted_(assistantParams, message, model, compat, convertAssistant);
      if (converted) out.push(converted);
    } else {
      // A run of tool results; images they returned follow in one user message.
      const images: ChatCompletionContentPartImage[] = [];
      for (; i < messages.length && messages[i].role === "toolResult"; i++) {
        const result = messages[i] as ToolResultMessage;
        out.push(converted_(toolParams, result, model, compat, (_model, m, c) => toolMessage(m, c)));
        if (acceptsImages) images.push(...result.content.filter((c): c is ImageContent => c.type === "image").map(imagePart));
      }
      i--;
      if (images.length > 0) {
        if (compat.requiresAssistantAfterToolResult) out.push({ role: "assistant", content: "I have processed the tool results." });
        out.push({ role: "user", content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...images] });
      }
    }
  }
  return out;
}

type Converted<T> = WeakMap<object, { model: Model; compat: ResolvedCompat; value: T }>;
const assistantParams: Converted<AssistantParam | undefined> = new WeakMap();
const toolParams: Converted<ChatCompletionToolMessageParam> = new WeakMap();

/**
 * A finished message converts the same way for every request of a conversation: reuse it (the
 * request of turn n would otherwise convert all n messages again).
 */
function converted_<M extends object, T>(cache: Converted<T>, message: M, model: Model, compat: ResolvedCompat, convert: (model: Model, message: M, compat: ResolvedCompat) => T): T {
  const hit = cache.get(message);
  if (hit && hit.model === model && hit.compat === compat) return hit.value;
  const value = convert(model, message, compat);
  cache.set(message, { model, compat, value });
  return value;
}

function userPart(part: TextContent | ImageContent, acceptsImages: boolean): ChatCompletionContentPart[] {
  if (part.type === "text") return part.text ? [{ type: "text", text: part.text }] : [];
  return acceptsImages ? [imagePart(part)] : [{ type: "text", text: imageOmitted }];
}

function imagePart(image: ImageContent): ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function toolMessage(result: ToolResultMessage, compat: ResolvedCompat): ChatCompletionToolMessageParam {
  const text = result.content
    .filter((c): c is TextContent => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  const hasImages = result.content.some((c) => c.type === "image");
  const message: ChatCompletionToolMessageParam & { name?: string } = {
    role: "tool",
    tool_call_id: chatToolCallId(result.toolCallId),
    content: text || (hasImages ? "(see attached image)" : "(no output)"),
  };
  if (compat.requiresToolResultName) message.name = result.toolName;
  return message;
}

/**
 * Text is sent as one string (array content makes some models echo the structure). Thinking goes
 * back only to the model that produced it, in the field it came in (llama.cpp, DeepSeek), or
 * as text when the server wants that.
 */
function convertAssistant(model: Model, message: AssistantMessage, compat: ResolvedCompat): AssistantParam | undefined {
  const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
  const text = message.content
    .filter((c): c is TextContent => c.type === "text" && c.text.trim().length > 0)
    .map((c) => c.text)
    .join("");
  const thinking = message.content.filter((c): c is ThinkingContent => c.type === "thinking" && c.thinking.trim().length > 0 && !c.redacted);
  const toolCalls = message.content.filter((c): c is ToolCall => c.type === "toolCall");
  const param: AssistantParam = { role: "assistant", content: text || (compat.requiresAssistantAfterToolResult ? "" : null) };
  if (sameModel && thinking.length > 0) {
    const thoughts = thinking.map((c) => c.thinking).join("\n\n");
    const field = thinking[0].thinkingSignature;
    if (compat.requiresThinkingAsText) param.content = [thoughts, text].filter(Boolean).join("\n\n");
    else if (field && (reasoningFields as readonly string[]).includes(field)) param[field as ReasoningField] = thoughts;
  }
  if (toolCalls.length > 0) {
    param.tool_calls = toolCalls.map((call) => ({
      id: chatToolCallId(call.id),
      type: "function" as const,
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  // Servers reject an assistant message with neither content nor tool calls (an aborted turn).
  if (!param.content && !param.tool_calls) return undefined;
  return param;
}

export function convertChatTools(tools: Tool[], compat: ResolvedCompat): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: toolParameters(tool),
      ...(compat.supportsStrictMode ? { strict: false } : {}),
    },
  }));
}

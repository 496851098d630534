/**
 * Our messages and tools in the Anthropic Messages API's shape: tool results as user-role
 * tool_result blocks, thinking replayed with its signature (only to the model that signed it),
 * tool-call ids made valid for Anthropic, and a cache breakpoint on the last user message.
 */
import { createHash } from "node:crypto";
import type {
  Base64ImageSource,
  CacheControlEphemeral,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool as AnthropicTool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessage, ImageContent, Message, Model, TextContent, Tool, ToolResultMessage } from "../types";

export const ephemeral: CacheControlEphemeral = { type: "ephemeral" };

const validToolId = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool-call id Anthropic accepts (`^[a-zA-Z0-9_-]{1,64}$`). Valid ids stay as they are; others
 * (OpenAI's long ids, ids with `|` or `.`) get a sanitized prefix and a hash of the original, so
 * the tool_use and its tool_result still match and distinct ids stay distinct.
 */
export function anthropicToolId(id: string): string {
  if (validToolId.test(id)) return id;
  const hash = createHash("sha256").update(id).digest("hex").slice(0, 12);
  return `${id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 51)}_${hash}`;
}

export function convertMessages(model: Model, messages: Message[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      const content = assistantBlocks(model, message);
      if (content.length) out.push({ role: "assistant", content });
    } else if (message.role === "toolResult") {
      pushUser(out, [toolResultBlock(model, message)], true);
    } else {
      const content = typeof message.content === "string" ? textBlocks(message.content) : userBlocks(model, message.content);
      if (content.length) pushUser(out, content, false);
    }
  }
  markLastUserMessage(out);
  return out;
}

/**
 * Appends user content, merging it into the previous user message: consecutive tool results
 * become one message (as the API wants), and text may follow them. Tool results never go after
 * plain user content, because tool_result blocks must open their message.
 */
function pushUser(out: MessageParam[], blocks: ContentBlockParam[], toolResults: boolean): void {
  const last = out[out.length - 1];
  const canMerge =
    last?.role === "user" && Array.isArray(last.content) && (!toolResults || last.content.every((b) => b.type === "tool_result"));
  if (canMerge && Array.isArray(last.content)) last.content.push(...blocks);
  else out.push({ role: "user", content: blocks });
}

function textBlocks(text: string): TextBlockParam[] {
  return text.trim() ? [{ type: "text", text }] : [];
}

function imageBlock(model: Model, image: ImageContent): ImageBlockParam | TextBlockParam {
  if (!model.input.includes("image")) return { type: "text", text: "(image omitted: this model does not accept images)" };
  return { type: "image", source: { type: "base64", media_type: image.mimeType as Base64ImageSource["media_type"], data: image.data } };
}

function userBlocks(model: Model, content: (TextContent | ImageContent)[]): (TextBlockParam | ImageBlockParam)[] {
  return content.flatMap((item) => (item.type === "text" ? textBlocks(item.text) : [imageBlock(model, item)]));
}

function toolResultBlock(model: Model, message: ToolResultMessage): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: "tool_result", tool_use_id: anthropicToolId(message.toolCallId) };
  const hasImages = message.content.some((c) => c.type === "image");
  if (hasImages) block.content = userBlocks(model, message.content);
  else {
    const text = message.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    if (text) block.content = text;
  }
  if (message.isError) block.is_error = true;
  return block;
}

function assistantBlocks(model: Model, message: AssistantMessage): ContentBlockParam[] {
  // Signatures only verify with the model that produced them; elsewhere thinking becomes plain text.
  const sameModel = message.api === model.api && message.provider === model.provider && message.model === model.id;
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === "text") blocks.push(...textBlocks(block.text));
    else if (block.type === "thinking") {
      const signature = block.thinkingSignature?.trim() ? block.thinkingSignature : undefined;
      if (block.redacted) {
        if (sameModel && signature) blocks.push({ type: "redacted_thinking", data: signature });
      } else if (sameModel && signature) blocks.push({ type: "thinking", thinking: block.thinking, signature });
      else blocks.push(...textBlocks(block.thinking));
    } else {
      blocks.push({ type: "tool_use", id: anthropicToolId(block.id), name: block.name, input: block.arguments });
    }
  }
  return blocks;
}

/** A cache breakpoint on the conversation so far: the last block of the last message, if it is the user's. */
function markLastUserMessage(out: MessageParam[]): void {
  const last = out[out.length - 1];
  if (last?.role !== "user" || !Array.isArray(last.content)) return;
  const block = last.content[last.content.length - 1];
  if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) block.cache_control = ephemeral;
}

/** Tools with their TypeBox schema as input_schema; the last one carries a cache breakpoint. */
export function convertTools(tools: Tool[]): AnthropicTool[] {
  return tools.map((tool, index) => {
    const schema = JSON.parse(JSON.stringify(tool.parameters)) as Record<string, unknown>;
    for (const key of ["$schema", "$id", "anyOf", "oneOf", "allOf", "not"]) delete schema[key];
    const converted: AnthropicTool = {
      name: tool.name,
      description: tool.description,
      input_schema: { ...schema, type: "object", properties: (schema.properties as Record<string, unknown> | undefined) ?? {} },
    };
    if (index === tools.length - 1) converted.cache_control = ephemeral;
    return converted;
  });
}

import type {
  FunctionTool,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type { AssistantMessage, Context, ImageContent, Model, TextContent, Tool, ToolResultMessage } from "../types";
import { toolParameters } from "./client";
import { instructionRole } from "./compat";
import { responsesCallId, splitToolCallId } from "./ids";

/**
 * Converts the conversation to Responses input items. With `store: false` nothing lives on the
 * server, so a previous turn of the same model is replayed whole: its reasoning items (the
 * thinkingSignature holds the item with its encrypted_content), its message items under their
 * ids (textSignature) and its function calls under their item ids, so OpenAI can pair them.
 * Turns of other models go back as plain messages and calls.
 */
export function convertResponsesInput(model: Model, context: Context): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  const acceptsImages = model.input.includes("image");
  if (context.systemPrompt) {
    out.push({ type: "message", role: instructionRole(model, model.compat?.supportsDeveloperRole !== false), content: context.systemPrompt });
  }
  for (const message of context.messages) {
    if (message.role === "user") {
      const parts = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
      const content = parts.flatMap((part) => inputPart(part, acceptsImages));
      if (content.length > 0) out.push({ type: "message", role: "user", content });
    } else if (message.role === "assistant") {
      out.push(...assistantItems(model, message));
    } else {
      out.push({ type: "function_call_output", call_id: responsesCallId(message.toolCallId), output: toolOutput(message, acceptsImages) });
    }
  }
  return out;
}

function inputPart(part: TextContent | ImageContent, acceptsImages: boolean): ResponseInputContent[] {
  if (part.type === "text") return part.text ? [{ type: "input_text", text: part.text }] : [];
  if (!acceptsImages) return [{ type: "input_text", text: "(image omitted: this model does not accept images)" }];
  return [{ type: "input_image", detail: "auto", image_url: `data:${part.mimeType};base64,${part.data}` }];
}

function toolOutput(result: ToolResultMessage, acceptsImages: boolean): string | ResponseFunctionCallOutputItemList {
  const text = result.content
    .filter((c): c is TextContent => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  const images = result.content.filter((c): c is ImageContent => c.type === "image");
  if (images.length === 0 || !acceptsImages) return text || (images.length > 0 ? "(image omitted: this model does not accept images)" : "(no output)");
  return [
    ...(text ? [{ type: "input_text" as const, text }] : []),
    ...images.map((image) => ({ type: "input_image" as const, detail: "auto" as const, image_url: `data:${image.mimeType};base64,${image.data}` })),
  ];
}

/** A stored reasoning item, if the signature is one and can be replayed (it carries encrypted_content). */
function reasoningItem(signature: string | undefined): ResponseReasoningItem | undefined {
  if (!signature?.startsWith("{")) return undefined;
  try {
    const item = JSON.parse(signature) as Partial<ResponseReasoningItem>;
    if (item.type !== "reasoning" || typeof item.id !== "string" || !item.encrypted_content) return undefined;
    return { type: "reasoning", id: item.id, summary: Array.isArray(item.summary) ? item.summary : [], encrypted_content: item.encrypted_content };
  } catch {
    return undefined;
  }
}

function assistantItems(model: Model, message: AssistantMessage): ResponseInputItem[] {
  const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
  const items: ResponseInputItem[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      const item = sameModel ? reasoningItem(block.thinkingSignature) : undefined;
      if (item) items.push(item);
    } else if (block.type === "text") {
      if (!block.text) continue;
      const id = block.textSignature;
      if (sameModel && id && id.length <= 64 && id.startsWith("msg")) {
        items.push({ type: "message", role: "assistant", id, status: "completed", content: [{ type: "output_text", text: block.text, annotations: [] }] });
      } else items.push({ type: "message", role: "assistant", content: block.text });
    } else {
      const { itemId } = splitToolCallId(block.id);
      items.push({
        type: "function_call",
        call_id: responsesCallId(block.id),
        name: block.name,
        arguments: JSON.stringify(block.arguments),
        // The item id pairs the call with the reasoning before it: only for the same model's own calls.
        ...(sameModel && itemId?.startsWith("fc") && itemId.length <= 64 ? { id: itemId } : {}),
      });
    }
  }
  return items;
}

/**
 * OpenAI makes Responses function tools strict unless told otherwise, and strict mode rejects
 * schemas with optional fields: so `strict: false` for OpenAI and servers that accept the field
 * (compat.supportsStrictMode), nothing for other servers, which may reject unknown fields.
 */
export function convertResponsesTools(model: Model, tools: Tool[]): FunctionTool[] {
  const sendStrict = model.compat?.supportsStrictMode ?? model.baseUrl.includes("api.openai.com");
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: toolParameters(tool),
    ...(sendStrict ? { strict: false } : {}),
  })) as FunctionTool[];
}

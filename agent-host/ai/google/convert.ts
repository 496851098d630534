/**
 * Our messages and tools as Gemini contents: roles user/model, tool calls as functionCall parts
 * and tool results as functionResponse parts (consecutive ones in one user turn), thought parts
 * and thought signatures replayed only to the model that produced them.
 */
import type { Content, FunctionDeclaration, Part, Schema, Tool as GoogleTool } from "@google/genai" with { "resolution-mode": "import" };
import type { AssistantMessage, ImageContent, Message, Model, TextContent, Tool, ToolResultMessage } from "../types";
import { cleanSchemaForGoogle, hasFreeFormObject, jsonSchemaForGoogle } from "./schema";

/** Gemini 3 and later pair function calls and responses by id; earlier models reject ids. */
export function usesFunctionIds(model: Model): boolean {
  const major = /^gemini-(\d+)/.exec(model.id.toLowerCase())?.[1];
  return major !== undefined && Number(major) >= 3;
}

// Signatures are base64 bytes on the wire; anything else would be rejected.
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;
const validSignature = (signature: string | undefined): signature is string =>
  !!signature && signature.length % 4 === 0 && base64.test(signature);

export function convertContents(model: Model, messages: Message[]): Content[] {
  const contents: Content[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === "user") {
      const parts = typeof message.content === "string" ? textParts(message.content) : userParts(model, message.content);
      if (parts.length) contents.push({ role: "user", parts });
    } else if (message.role === "assistant") {
      const parts = modelParts(model, message);
      if (parts.length) contents.push({ role: "model", parts });
    } else {
      // All consecutive tool results answer one model turn: one user turn of functionResponses.
      const results: ToolResultMessage[] = [];
      for (; i < messages.length && messages[i].role === "toolResult"; i++) results.push(messages[i] as ToolResultMessage);
      i--;
      contents.push({ role: "user", parts: results.map((result) => functionResponse(model, result)) });
      const images = results.flatMap((result) => result.content.filter((c): c is ImageContent => c.type === "image"));
      if (images.length && model.input.includes("image")) {
        contents.push({ role: "user", parts: [{ text: "Images returned by the tools above:" }, ...images.map(inlineData)] });
      }
    }
  }
  return contents;
}

function textParts(text: string): Part[] {
  return text.trim() ? [{ text }] : [];
}

function inlineData(image: ImageContent): Part {
  return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

function userParts(model: Model, content: (TextContent | ImageContent)[]): Part[] {
  return content.flatMap((item) => {
    if (item.type === "text") return textParts(item.text);
    return model.input.includes("image") ? [inlineData(item)] : [{ text: "(image omitted: this model does not accept images)" }];
  });
}

function functionResponse(model: Model, result: ToolResultMessage): Part {
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).filter(Boolean).join("\n");
  const hasImages = result.content.some((c) => c.type === "image");
  const value = text || (hasImages ? "(see the images below)" : "");
  return {
    functionResponse: {
      name: result.toolName,
      response: result.isError ? { error: value } : { output: value },
      ...(usesFunctionIds(model) ? { id: result.toolCallId } : {}),
    },
  };
}

function modelParts(model: Model, message: AssistantMessage): Part[] {
  const sameModel = message.api === model.api && message.provider === model.provider && message.model === model.id;
  const signature = (value: string | undefined) => (sameModel && validSignature(value) ? { thoughtSignature: value } : {});
  const parts: Part[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      // An empty text part may carry the signature Gemini wants back.
      const signed = signature(block.textSignature);
      if (block.text.trim() || signed.thoughtSignature) parts.push({ text: block.text, ...signed });
    } else if (block.type === "thinking") {
      if (block.redacted) continue;
      if (sameModel) {
        const signed = signature(block.thinkingSignature);
        if (block.thinking.trim() || signed.thoughtSignature) parts.push({ thought: true, text: block.thinking, ...signed });
      } else parts.push(...textParts(block.thinking));
    } else {
      parts.push({
        functionCall: { name: block.name, args: block.arguments, ...(usesFunctionIds(model) ? { id: block.id } : {}) },
        ...signature(block.thoughtSignature),
      });
    }
  }
  return parts;
}

/**
 * All tools as one Gemini tool of function declarations. Parameters go in Gemini's OpenAPI subset
 * (cleaned); a schema the subset cannot say (a free-form map) goes whole as parametersJsonSchema;
 * a tool without parameters declares none (Gemini rejects an object without properties).
 */
export function convertTools(tools: Tool[]): GoogleTool[] {
  const declarations = tools.map((tool): FunctionDeclaration => {
    const json = JSON.parse(JSON.stringify(tool.parameters)) as Record<string, unknown>;
    const parameters = cleanSchemaForGoogle(json);
    const declaration: FunctionDeclaration = { name: tool.name, description: tool.description };
    const hasProperties = typeof parameters.properties === "object" && Object.keys(parameters.properties ?? {}).length > 0;
    const openRoot = (json.additionalProperties !== undefined && json.additionalProperties !== false) || json.patternProperties !== undefined;
    const freeForm = hasProperties ? hasFreeFormObject(parameters) : openRoot;
    if (freeForm) declaration.parametersJsonSchema = jsonSchemaForGoogle(json);
    else if (hasProperties) declaration.parameters = parameters as Schema;
    return declaration;
  });
  return [{ functionDeclarations: declarations }];
}

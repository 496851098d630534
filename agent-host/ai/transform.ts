/**
 * Makes a conversation replayable on a given model, whichever models wrote it (pi-ai's
 * transform-messages rules, with stricter id handling):
 *
 * - Assistant turns that ended in `error` or `aborted` are not replayed, nor the tool results
 *   answering their tool calls.
 * - Thinking from another model becomes plain text (empty thinking is dropped; redacted thinking
 *   is dropped). Signatures (thinking, text, Google's thoughtSignature) are kept only when the turn
 *   came from the same provider, API and model id.
 * - Tool-call ids the target API would reject are rewritten, consistently in the calls and their
 *   results, without ever mapping two ids to one: Anthropic and Google `^[A-Za-z0-9_-]{1,64}$`,
 *   OpenAI Responses the same (or a `call|item` pair from the same provider), Chat Completions
 *   at most 40 characters, Mistral exactly 9 letters or digits.
 * - A tool call with no result before the next user or assistant message (or the end) gets a
 *   synthetic error result "No result provided".
 * - For a model without image input, images in user messages and tool results become one text
 *   note per run of images.
 * - An assistant message left with no content is dropped (APIs reject empty turns).
 *
 * Input messages are never modified.
 */
import { createHash } from "node:crypto";
import type { AssistantMessage, ImageContent, Message, Model, TextContent, ToolCall, ToolResultMessage } from "./types";

export const IMAGE_OMITTED_NOTE = "[image omitted: this model does not accept images]";
export const TOOL_IMAGE_OMITTED_NOTE = "[tool result image omitted: this model does not accept images]";
export const NO_RESULT_TEXT = "No result provided";

type TargetModel = Pick<Model, "id" | "api" | "provider" | "baseUrl" | "input">;

interface IdRule {
  valid(id: string, from: AssistantMessage): boolean;
  rewrite(id: string, attempt: number): string;
}

const SAFE = /^[A-Za-z0-9_-]+$/;

function hash(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** Sanitized to [A-Za-z0-9_-], cut to `max` with a hash suffix when too long or on a retry. */
function safeId(max: number): IdRule["rewrite"] {
  return (id, attempt) => {
    const clean = id.replace(/[^A-Za-z0-9_-]/g, "_") || "call";
    if (attempt === 0 && clean.length <= max) return clean;
    const suffix = hash(attempt === 0 ? id : `${id}#${attempt}`, 8);
    return `${clean.slice(0, max - suffix.length - 1)}_${suffix}`;
  };
}

function isMistral(model: TargetModel): boolean {
  return model.provider === "mistral" || /(^|\.)mistral\.ai$/i.test(hostOf(model.baseUrl));
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

function idRule(model: TargetModel): IdRule | undefined {
  const upTo = (max: number) => (id: string) => id.length > 0 && id.length <= max && SAFE.test(id);
  switch (model.api) {
    case "anthropic-messages":
    case "google-generative-ai":
      return { valid: upTo(64), rewrite: safeId(64) };
    case "openai-responses": {
      const simple = upTo(64);
      return {
        valid: (id, from) => simple(id) || (from.provider === model.provider && from.api === model.api && id.includes("|")),
        rewrite: safeId(64),
      };
    }
    case "openai-completions":
      if (isMistral(model)) {
        return {
          valid: (id) => /^[A-Za-z0-9]{9}$/.test(id),
          rewrite: (id, attempt) => {
            const alnum = id.replace(/[^A-Za-z0-9]/g, "");
            return attempt === 0 && alnum.length === 9 ? alnum : hash(attempt === 0 ? id : `${id}#${attempt}`, 9);
          },
        };
      }
      return { valid: (id) => id.length > 0 && id.length <= 40 && !id.includes("|"), rewrite: safeId(40) };
    default:
      return undefined;
  }
}

function sameModel(message: AssistantMessage, model: TargetModel): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

/** Maps every tool-call id the target rejects to a fresh valid one; ids it accepts stay. */
function planIds(assistants: AssistantMessage[], model: TargetModel): Map<string, string> {
  const rule = idRule(model);
  const renamed = new Map<string, string>();
  if (!rule) return renamed;
  const taken = new Set<string>();
  const rejected: { call: ToolCall; from: AssistantMessage }[] = [];
  for (const from of assistants) {
    for (const block of from.content) {
      if (block.type !== "toolCall") continue;
      if (rule.valid(block.id, from)) taken.add(block.id);
      else rejected.push({ call: block, from });
    }
  }
  for (const { call } of rejected) {
    if (taken.has(call.id) || renamed.has(call.id)) continue;
    let attempt = 0;
    let candidate = rule.rewrite(call.id, attempt);
    while (taken.has(candidate)) candidate = rule.rewrite(call.id, ++attempt);
    taken.add(candidate);
    renamed.set(call.id, candidate);
  }
  return renamed;
}

function withoutImages<T extends TextContent | ImageContent>(content: T[], note: string): (T | TextContent)[] {
  const out: (T | TextContent)[] = [];
  let previousWasNote = false;
  for (const block of content) {
    if (block.type === "image") {
      if (!previousWasNote) out.push({ type: "text", text: note });
      previousWasNote = true;
    } else {
      out.push(block);
      previousWasNote = false;
    }
  }
  return out;
}

/** The message itself when nothing changes (so that later conversions can be reused), else a copy. */
function transformAssistant(message: AssistantMessage, model: TargetModel, renamed: Map<string, string>): AssistantMessage {
  const same = sameModel(message, model);
  if (same && !message.content.some((b) => (b.type === "thinking" && !b.redacted && !b.thinkingSignature && b.thinking.trim() === "") || (b.type === "toolCall" && renamed.has(b.id)))) {
    return message;
  }
  const content: AssistantMessage["content"] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (block.redacted) {
        if (same) content.push(block);
      } else if (same && block.thinkingSignature) {
        content.push(block);
      } else if (block.thinking.trim() === "") {
        // nothing worth replaying
      } else if (same) {
        content.push(block);
      } else {
        content.push({ type: "text", text: block.thinking });
      }
    } else if (block.type === "text") {
      content.push(same || block.textSignature === undefined ? block : { type: "text", text: block.text });
    } else {
      const id = renamed.get(block.id) ?? block.id;
      if (same && id === block.id) content.push(block);
      else {
        const { thoughtSignature, ...rest } = block;
        content.push(same && thoughtSignature !== undefined ? { ...rest, id, thoughtSignature } : { ...rest, id });
      }
    }
  }
  const unchanged = content.length === message.content.length && content.every((block, i) => block === message.content[i]);
  return unchanged ? message : { ...message, content };
}

function syntheticResult(call: ToolCall): ToolResultMessage {
  return { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text: NO_RESULT_TEXT }], isError: true, timestamp: Date.now() };
}

export function transformMessages(messages: readonly Message[], model: TargetModel): Message[] {
  const isFailed = (m: Message) => m.role === "assistant" && (m.stopReason === "error" || m.stopReason === "aborted");

  // Called on every turn with the whole conversation: plain loops, no intermediate arrays.
  const kept: AssistantMessage[] = [];
  const keptCallIds = new Set<string>();
  const failedCallIds: string[] = [];
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    const failed = isFailed(m);
    if (!failed) kept.push(m);
    for (const block of m.content) if (block.type === "toolCall") failed ? failedCallIds.push(block.id) : keptCallIds.add(block.id);
  }
  const droppedCallIds = new Set(failedCallIds.filter((id) => !keptCallIds.has(id)));
  const renamed = planIds(kept, model);
  const images = model.input.includes("image");

  const out: Message[] = [];
  let pending: ToolCall[] = [];
  const answered = new Set<string>();
  const closeTurn = () => {
    for (const call of pending) if (!answered.has(call.id)) out.push(syntheticResult(call));
    pending = [];
    answered.clear();
  };

  for (const message of messages) {
    if (message.role === "assistant") {
      closeTurn();
      if (isFailed(message)) continue;
      const transformed = transformAssistant(message, model, renamed);
      if (transformed.content.length === 0) continue;
      pending = transformed.content.filter((b): b is ToolCall => b.type === "toolCall");
      out.push(transformed);
    } else if (message.role === "toolResult") {
      if (droppedCallIds.has(message.toolCallId)) continue;
      const id = renamed.get(message.toolCallId) ?? message.toolCallId;
      answered.add(id);
      let result: ToolResultMessage = id === message.toolCallId ? message : { ...message, toolCallId: id };
      if (!images && result.content.some((b) => b.type === "image")) result = { ...result, content: withoutImages(result.content, TOOL_IMAGE_OMITTED_NOTE) };
      out.push(result);
    } else {
      closeTurn();
      if (!images && Array.isArray(message.content) && message.content.some((b) => b.type === "image")) {
        out.push({ ...message, content: withoutImages(message.content, IMAGE_OMITTED_NOTE) });
      } else {
        out.push(message);
      }
    }
  }
  closeTurn();
  return out;
}

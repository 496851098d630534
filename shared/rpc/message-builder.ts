import type { AgentMessage, AssistantContent, AssistantMessage, AssistantMessageEvent } from "../protocol";
import { PartialJsonParser } from "./partial-json";

/** A tool call's arguments while they stream: read incrementally, and how many characters came. */
export interface StreamingArguments {
  parser: PartialJsonParser;
  chars: number;
}

/** An assistant message as far as it has streamed. */
export interface StreamingAssistant {
  message: AssistantMessage;
  /** Per content index, while a tool call streams. */
  streamingArguments: Map<number, StreamingArguments>;
  done: boolean;
}

/**
 * Rebuilds the streaming assistant message from message_update deltas. Blocks are keyed by
 * contentIndex (they may end out of order), `*_end` content replaces the deltas, a cumulative
 * snapshot from an older peer replaces everything, and message_end is authoritative.
 */
export class AssistantMessageBuilder {
  private current: StreamingAssistant | undefined;

  get state(): StreamingAssistant | undefined {
    return this.current;
  }

  start(message: AgentMessage): StreamingAssistant | undefined {
    if (message.role !== "assistant") return undefined;
    this.current = { message: { ...message, content: [...(message.content ?? [])] }, streamingArguments: new Map(), done: false };
    return this.current;
  }

  update(event: AssistantMessageEvent, snapshot?: AgentMessage): StreamingAssistant {
    const state = this.current ?? this.start(placeholder())!;
    const partial = (event as { partial?: AgentMessage }).partial ?? snapshot;
    if (partial && partial.role === "assistant" && Array.isArray(partial.content)) {
      // Older Pi serializes the snapshot late: it already contains this delta (and maybe more).
      state.message = { ...state.message, ...partial, content: [...partial.content] };
      return state;
    }
    applyDelta(state, event);
    return state;
  }

  end(message: AgentMessage): StreamingAssistant | undefined {
    if (message.role !== "assistant") return undefined;
    const state = this.current ?? { message, streamingArguments: new Map(), done: true };
    state.message = message;
    state.streamingArguments.clear();
    state.done = true;
    this.current = undefined;
    return state;
  }
}

function applyDelta(state: StreamingAssistant, event: AssistantMessageEvent): void {
  if (event.type === "start" || event.type === "done" || event.type === "error") return;
  // Seed 001's examples omit contentIndex: such a delta belongs to the last block.
  const index = typeof event.contentIndex === "number" ? event.contentIndex : lastIndex(state);
  const content = state.message.content;
  switch (event.type) {
    case "text_start":
      content[index] = { type: "text", text: "" };
      break;
    case "text_delta": {
      const b = blockAt(content, index, "text");
      if (b.type === "text") b.text += event.delta;
      break;
    }
    case "text_end":
      content[index] = { ...(content[index]?.type === "text" ? content[index] : {}), type: "text", text: event.content };
      break;
    case "thinking_start":
      content[index] = { type: "thinking", thinking: "" };
      break;
    case "thinking_delta": {
      const b = blockAt(content, index, "thinking");
      if (b.type === "thinking") b.thinking += event.delta;
      break;
    }
    case "thinking_end":
      content[index] = { ...(content[index]?.type === "thinking" ? content[index] : {}), type: "thinking", thinking: event.content };
      break;
    case "toolcall_start":
      content[index] = { type: "toolCall", id: event.id ?? "", name: event.toolName ?? "", arguments: {} };
      state.streamingArguments.set(index, { parser: new PartialJsonParser(), chars: 0 });
      break;
    case "toolcall_delta": {
      const b = blockAt(content, index, "toolCall");
      let args = state.streamingArguments.get(index);
      if (!args) state.streamingArguments.set(index, (args = { parser: new PartialJsonParser(), chars: 0 }));
      // O(delta): the parser reads only the new text (re-parsing all of it per delta was quadratic).
      args.parser.push(event.delta);
      args.chars += event.delta.length;
      if (b.type === "toolCall") b.arguments = args.parser.value();
      break;
    }
    case "toolcall_end":
      content[index] = event.toolCall;
      state.streamingArguments.delete(index);
      break;
  }
}

/**
 * The block at `index` for a delta of `type`, made when missing (gaps filled with empty text
 * blocks) or when it is such a filler and the delta is not text. Per delta: no allocation when the
 * block exists.
 */
function blockAt(content: AssistantContent[], index: number, type: AssistantContent["type"]): AssistantContent {
  while (content.length <= index) content.push({ type: "text", text: "" });
  const existing = content[index];
  const filler = existing?.type === "text" && existing.text === "" && type !== "text";
  if (existing && !filler) return existing;
  const made: AssistantContent = type === "text" ? { type: "text", text: "" } : type === "thinking" ? { type: "thinking", thinking: "" } : { type: "toolCall", id: "", name: "", arguments: {} };
  content[index] = made;
  return made;
}

function lastIndex(state: StreamingAssistant): number {
  return Math.max(0, state.message.content.length - 1);
}

function placeholder(): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "",
    provider: "",
    model: "",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "pending",
    timestamp: Date.now(),
  };
}

import { inertMessage } from "../../shared/foreign-json";
import { PartialJsonParser, parsePartialJson } from "../../shared/rpc/partial-json";
import { ArgumentBounds, refuseToolCall } from "./tool-call-limits";
import { AssistantMessageEventStream } from "./event-stream";
import { applyCost, emptyUsage } from "./usage";
import type { AssistantMessage, Model, StopReason, ToolCall, Usage } from "./types";

type OpenBlock =
  | { kind: "text"; index: number }
  | { kind: "thinking"; index: number }
  | { kind: "toolCall"; index: number; raw: string; bounds: ArgumentBounds; partial: PartialJsonParser; refused?: string };

/**
 * What every provider uses to build its message and emit events in the one order the agent
 * expects: start, then per block *_start, *_delta…, *_end, then done or error. Providers map their
 * wire chunks onto these calls and never touch the event stream directly.
 */
export class MessageStreamBuilder {
  readonly stream = new AssistantMessageEventStream();
  readonly message: AssistantMessage;
  private readonly open = new Map<string, OpenBlock>();
  private finished = false;

  constructor(private readonly model: Model) {
    this.message = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: emptyUsage(),
      stopReason: "pending",
      timestamp: Date.now(),
    };
  }

  start(): void {
    this.stream.push({ type: "start", partial: this.message });
  }

  /** Appends text to the text block `key` (opened on first use). Keys are the provider's block ids. */
  text(key: string, delta: string): void {
    const block = this.openBlock(key, "text");
    const content = this.message.content[block.index];
    if (content.type === "text" && delta) {
      content.text += delta;
      this.stream.push({ type: "text_delta", contentIndex: block.index, delta, partial: this.message });
    }
  }

  thinking(key: string, delta: string, signature?: string): void {
    const block = this.openBlock(key, "thinking");
    const content = this.message.content[block.index];
    if (content.type !== "thinking") return;
    if (signature) content.thinkingSignature = (content.thinkingSignature ?? "") + signature;
    if (delta) {
      content.thinking += delta;
      this.stream.push({ type: "thinking_delta", contentIndex: block.index, delta, partial: this.message });
    }
  }

  /** Sets an opaque signature on an open block (text signature, thinking signature, Google's thought signature). */
  sign(key: string, signature: string, redacted = false): void {
    const block = this.open.get(key);
    if (!block) return;
    const content = this.message.content[block.index];
    if (content.type === "thinking") {
      content.thinkingSignature = signature;
      if (redacted) content.redacted = true;
    } else if (content.type === "text") content.textSignature = signature;
    else content.thoughtSignature = signature;
  }

  toolCallStart(key: string, id: string, name: string): void {
    if (this.open.has(key)) return;
    const index = this.message.content.length;
    this.message.content.push({ type: "toolCall", id, name, arguments: {} });
    this.open.set(key, { kind: "toolCall", index, raw: "", bounds: new ArgumentBounds(), partial: new PartialJsonParser() });
    this.stream.push({ type: "toolcall_start", contentIndex: index, id, toolName: name, partial: this.message });
  }

  toolCallArguments(key: string, delta: string): void {
    const block = this.open.get(key);
    if (!block || block.kind !== "toolCall" || !delta || block.refused) return;
    const content = this.message.content[block.index] as ToolCall;
    block.refused = block.bounds.push(delta);
    if (block.refused) {
      block.raw = "";
      content.arguments = {};
      return;
    }
    block.raw += delta;
    // Read incrementally (O(delta)): what streamed so far shows in `arguments`, as in Pi.
    content.arguments = block.partial.push(delta).value();
    this.stream.push({ type: "toolcall_delta", contentIndex: block.index, delta, partial: this.message });
  }

  /** Closes a block; a tool call's arguments are parsed in full here (invalid JSON becomes {}). */
  end(key: string, finalToolCall?: Partial<ToolCall>): void {
    const block = this.open.get(key);
    if (!block) return;
    this.open.delete(key);
    const content = this.message.content[block.index];
    if (content.type === "text") this.stream.push({ type: "text_end", contentIndex: block.index, content: content.text, partial: this.message });
    else if (content.type === "thinking") this.stream.push({ type: "thinking_end", contentIndex: block.index, content: content.thinking, partial: this.message });
    else {
      if (block.kind === "toolCall" && block.raw) content.arguments = parseArguments(block.raw);
      // A provider's own decoded arguments (Google's, Bedrock's) are foreign data too.
      if (finalToolCall) Object.assign(content, inertMessage({ ...finalToolCall }));
      if (block.kind === "toolCall" && block.refused) {
        content.arguments = {};
        refuseToolCall(content, block.refused);
      }
      this.stream.push({ type: "toolcall_end", contentIndex: block.index, toolCall: content, partial: this.message });
    }
  }

  usage(update: Partial<Omit<Usage, "cost" | "totalTokens">>): void {
    Object.assign(this.message.usage, update);
    applyCost(this.model, this.message.usage);
  }

  setResponseId(id: string | undefined): void {
    if (id) this.message.responseId = id;
  }

  /** Ends the stream normally. */
  finish(stopReason: Exclude<StopReason, "pending" | "error" | "aborted">, rawStopReason?: string): AssistantMessage {
    if (this.finished) return this.message;
    this.closeAll();
    this.finished = true;
    this.message.stopReason = this.message.content.some((c) => c.type === "toolCall") && stopReason === "stop" ? "toolUse" : stopReason;
    if (rawStopReason) this.message.rawStopReason = rawStopReason;
    applyCost(this.model, this.message.usage);
    const reason = this.message.stopReason === "deferred" ? "stop" : this.message.stopReason;
    this.stream.push({ type: "done", reason: reason as "stop" | "length" | "toolUse", message: this.message });
    return this.message;
  }

  /** Ends the stream with an error or an abort; what streamed so far is kept. */
  fail(error: unknown, aborted: boolean): AssistantMessage {
    if (this.finished) return this.message;
    this.closeAll();
    this.finished = true;
    this.message.stopReason = aborted ? "aborted" : "error";
    this.message.errorMessage = aborted ? "Request was aborted" : errorText(error);
    applyCost(this.model, this.message.usage);
    this.stream.push({ type: "error", reason: aborted ? "aborted" : "error", error: this.message });
    return this.message;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  private openBlock(key: string, kind: "text" | "thinking"): OpenBlock {
    const existing = this.open.get(key);
    if (existing) return existing;
    const index = this.message.content.length;
    this.message.content.push(kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" });
    const block: OpenBlock = { kind, index };
    this.open.set(key, block);
    this.stream.push({ type: kind === "text" ? "text_start" : "thinking_start", contentIndex: index, partial: this.message });
    return block;
  }

  private closeAll(): void {
    for (const key of [...this.open.keys()]) this.end(key);
  }
}

/** The model's text (foreign: a prompt injection can shape it), through the foreign-JSON door. */
function parseArguments(raw: string): Record<string, unknown> {
  return parsePartialJson(raw);
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

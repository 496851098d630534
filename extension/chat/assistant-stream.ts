import type { AgentMessage, AssistantContent, EventOf } from "../../shared/protocol";
import { AssistantMessageBuilder } from "../../shared/rpc/message-builder";
import type { AssistantBlock } from "../../shared/chat-items";
import { StreamingToolCards } from "./streaming-tool-cards";
import type { Transcript } from "./transcript";

/**
 * The assistant message being streamed, as a transcript item whose text and thinking blocks
 * grow by appends. Older peers that send cumulative snapshots instead of deltas are followed
 * through AssistantMessageBuilder; message_end is authoritative.
 */
export class AssistantStream {
  private current: { key: string; builder: AssistantMessageBuilder } | undefined;
  private readonly toolCards: StreamingToolCards;

  constructor(
    private readonly transcript: Transcript,
    private readonly now: () => number,
  ) {
    this.toolCards = new StreamingToolCards(transcript, now);
  }

  start(message: AgentMessage): { key: string; builder: AssistantMessageBuilder } {
    this.finish();
    const builder = new AssistantMessageBuilder();
    const state = builder.start(message);
    const key = this.transcript.newKey("assistant");
    this.current = { key, builder };
    this.transcript.upsert({ key, kind: "assistant", blocks: blocksOf(state?.message.content ?? []), streaming: true });
    return this.current;
  }

  update(event: EventOf<"message_update">): void {
    const delta = event.assistantMessageEvent;
    const current = this.current ?? this.start(placeholder(this.now()));
    const snapshot = (delta as { partial?: unknown }).partial ?? event.message;
    const state = current.builder.update(delta, event.message);
    if (!snapshot && (delta.type === "text_delta" || delta.type === "thinking_delta")) {
      const contentIndex = typeof delta.contentIndex === "number" ? delta.contentIndex : state.message.content.length - 1;
      const block = blockIndex(state.message.content, contentIndex);
      this.transcript.appendBlock(current.key, block, delta.type === "text_delta" ? "text" : "thinking", delta.delta);
      return;
    }
    if (!snapshot && (delta.type === "toolcall_start" || delta.type === "toolcall_delta" || delta.type === "toolcall_end")) {
      this.toolCards.event(delta, state);
      if (delta.type === "toolcall_delta") return;
    }
    this.sync(current.key, blocksOf(state.message.content));
  }

  end(message: AgentMessage): void {
    if (message.role !== "assistant") return;
    const current = this.current ?? this.start(message);
    this.current = undefined;
    current.builder.end(message);
    this.toolCards.messageEnded(message.stopReason === "error" || message.stopReason === "aborted");
    const blocks = blocksOf(message.content ?? []);
    this.sync(current.key, blocks);
    const hasText = blocks.some((b) => b.text.trim() !== "");
    const error = message.stopReason === "error" ? (message.errorMessage ?? "The model request failed.") : undefined;
    const aborted = message.stopReason === "aborted";
    if (!hasText && !error && !aborted) {
      this.transcript.remove(current.key);
      return;
    }
    this.transcript.update(current.key, "assistant", { streaming: false, error, aborted: aborted || undefined });
  }

  /** A run ended without message_end (e.g. the agent exited): stop the cursor. */
  finish(): void {
    this.toolCards.finish();
    if (!this.current) return;
    const { key } = this.current;
    this.current = undefined;
    const item = this.transcript.get(key, "assistant");
    if (item && !item.blocks.some((b) => b.text.trim() !== "")) this.transcript.remove(key);
    else this.transcript.update(key, "assistant", { streaming: false });
  }

  /** Makes the item's blocks equal to `blocks`, by appending where the text only grew. */
  private sync(key: string, blocks: AssistantBlock[]): void {
    const item = this.transcript.get(key, "assistant");
    if (!item) return;
    const grows = item.blocks.length <= blocks.length && item.blocks.every((b, i) => b.type === blocks[i].type && blocks[i].text.startsWith(b.text));
    if (!grows) {
      this.transcript.update(key, "assistant", { blocks });
      return;
    }
    blocks.forEach((block, i) => {
      const have = item.blocks[i]?.text.length ?? 0;
      if (block.text.length > have) this.transcript.appendBlock(key, i, block.type, block.text.slice(have));
    });
  }
}

export function blocksOf(content: AssistantContent[]): AssistantBlock[] {
  return content.flatMap((c): AssistantBlock[] =>
    c.type === "text" ? [{ type: "text", text: c.text }] : c.type === "thinking" ? [{ type: "thinking", text: c.thinking || (c.redacted ? "(redacted)" : "") }] : [],
  );
}

/** Index among the text and thinking blocks of the content block at `contentIndex`. */
function blockIndex(content: AssistantContent[], contentIndex: number): number {
  let n = 0;
  for (let i = 0; i < contentIndex && i < content.length; i++) if (content[i].type !== "toolCall") n++;
  return n;
}

function placeholder(timestamp: number): AgentMessage {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  return { role: "assistant", content: [], api: "", provider: "", model: "", usage, stopReason: "pending", timestamp };
}

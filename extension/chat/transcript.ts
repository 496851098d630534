import type { AgentEvent, AgentMessage } from "../../shared/protocol";
import type { ChatItem, ToWebview } from "../../shared/webview-protocol";

/**
 * The chat as the webview shows it, built from agent events. Kept in the extension so a
 * reloaded webview gets the whole transcript back; changes go out as small messages.
 */
export class Transcript {
  private readonly items: ChatItem[] = [];
  private readonly index = new Map<string, number>();
  private messageCount = 0;
  private streamingKey: string | undefined;

  constructor(private readonly post: (message: ToWebview) => void) {}

  snapshot(): ChatItem[] {
    return this.items.map((item) => ({ ...item }));
  }

  add(item: Omit<ChatItem, "key"> & { key?: string }): ChatItem {
    const full: ChatItem = { ...item, key: item.key ?? `local-${this.messageCount++}` };
    this.upsert(full);
    return full;
  }

  clear(): void {
    this.items.length = 0;
    this.index.clear();
    this.post({ type: "reset", items: [] });
  }

  apply(event: AgentEvent): void {
    switch (event.type) {
      case "message_start":
        return this.messageStart(event.message);
      case "message_update": {
        const delta = event.assistantMessageEvent;
        if (delta.type === "text_delta" && this.streamingKey) {
          this.appendText(this.streamingKey, delta.delta);
        }
        return;
      }
      case "message_end":
        return this.messageEnd(event.message);
      case "tool_execution_start":
        this.upsert({ key: `tool-${event.toolCallId}`, kind: "tool", title: event.toolName, text: formatArgs(event.args), streaming: true });
        return;
      case "tool_execution_end": {
        const text = event.result.content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType}]`)).join("");
        this.upsert({ key: `tool-${event.toolCallId}`, kind: event.isError ? "error" : "tool", title: event.toolName, text, streaming: false });
        return;
      }
    }
  }

  private messageStart(message: AgentMessage): void {
    if (message.role === "user") {
      this.upsert({ key: `m-${this.messageCount++}`, kind: "user", text: userText(message.content) });
    } else if (message.role === "assistant") {
      this.streamingKey = `m-${this.messageCount++}`;
      this.upsert({ key: this.streamingKey, kind: "assistant", text: "", streaming: true });
    }
  }

  private messageEnd(message: AgentMessage): void {
    if (message.role !== "assistant" || !this.streamingKey) return;
    const key = this.streamingKey;
    this.streamingKey = undefined;
    const text = (message.content ?? []).flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n\n");
    if (message.stopReason === "error" || message.stopReason === "aborted") {
      const reason = message.errorMessage ?? (message.stopReason === "aborted" ? "Aborted" : "The model request failed");
      this.upsert({ key, kind: text ? "assistant" : "error", text: text || reason, streaming: false });
      if (text) this.add({ kind: "error", text: reason });
      return;
    }
    if (!text && (message.content ?? []).some((c) => c.type === "toolCall")) {
      this.remove(key);
      return;
    }
    this.upsert({ key, kind: "assistant", text, streaming: false });
  }

  private appendText(key: string, text: string): void {
    const at = this.index.get(key);
    if (at === undefined) return;
    this.items[at].text += text;
    this.post({ type: "append", key, text });
  }

  private upsert(item: ChatItem): void {
    const at = this.index.get(item.key);
    if (at === undefined) {
      this.index.set(item.key, this.items.length);
      this.items.push(item);
    } else {
      this.items[at] = item;
    }
    this.post({ type: "upsert", item });
  }

  private remove(key: string): void {
    const at = this.index.get(key);
    if (at === undefined) return;
    this.items.splice(at, 1);
    this.index.clear();
    this.items.forEach((item, i) => this.index.set(item.key, i));
    this.post({ type: "reset", items: this.snapshot() });
  }
}

function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "[image]")).join("");
}

function formatArgs(args: unknown): string {
  if (args && typeof args === "object" && "command" in args && typeof args.command === "string") return args.command;
  return JSON.stringify(args);
}

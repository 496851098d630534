import { contentText, permissionModeInfo, permissionModes, type PermissionMode, type AgentEvent, type AgentMessage, type BashResult, type EventOf, type ToolCall } from "../../shared/protocol";
import type { SessionHeader } from "../../shared/webview-protocol";
import { AssistantStream } from "./assistant-stream";
import { imageCount, ToolCards } from "./tool-cards";
import type { Transcript } from "./transcript";

/** What the events change besides the transcript. */
export interface ChatEventSink {
  header(change: Partial<SessionHeader>): void;
}

/**
 * Turns agent events into transcript changes: streamed assistant text goes out block by block,
 * tools become cards with live output (tool-cards.ts), retries and compaction become banners.
 */
export class ChatEvents {
  private readonly assistant: AssistantStream;
  /** The tools' cards, with their own time (a question's wait left out: tool-clock.ts). */
  private readonly tools: ToolCards;
  private retryKey: string | undefined;
  private compactionKey: string | undefined;
  private summaryRetryKey: string | undefined;
  private runningBash: string | undefined;
  private lastSummary: string | undefined;

  constructor(
    private readonly transcript: Transcript,
    private readonly sink: ChatEventSink,
    now: () => number = Date.now,
  ) {
    this.assistant = new AssistantStream(transcript, now);
    this.tools = new ToolCards(transcript, now);
  }

  apply(event: AgentEvent): void {
    switch (event.type) {
      case "message_start":
        return this.messageStart(event.message);
      case "message_update":
        return this.assistant.update(event);
      case "message_end":
        return this.assistant.end(event.message);
      case "tool_execution_start":
        return this.tools.start(event);
      case "tool_execution_update":
        return this.tools.output(event);
      case "tool_execution_end":
        return this.tools.end(event);
      case "agent_end":
      case "agent_settled":
        return this.assistant.finish();
      case "session_info_changed":
        return this.sink.header({ sessionName: event.name });
      case "thinking_level_changed":
        return this.sink.header({ thinkingLevel: event.level });
      case "auto_retry_start":
        this.retryKey ??= this.transcript.newKey("retry");
        this.banner(this.retryKey, "warning", `Retrying in ${seconds(event.delayMs)} (attempt ${event.attempt} of ${event.maxAttempts}): ${event.errorMessage}`, true);
        return;
      case "auto_retry_end":
        if (!this.retryKey) return;
        if (event.success) this.banner(this.retryKey, "info", `Retry succeeded (attempt ${event.attempt}).`, false);
        else this.banner(this.retryKey, "error", `Retry failed after ${event.attempt} attempts: ${event.finalError ?? "unknown error"}`, false);
        this.retryKey = undefined;
        return;
      case "compaction_start":
      case "auto_compaction_start":
        this.compactionKey ??= this.transcript.newKey("compaction");
        this.banner(this.compactionKey, "info", `Compacting the context${event.reason ? ` (${event.reason})` : ""}…`, true);
        return;
      case "compaction_end":
      case "auto_compaction_end":
        return this.compactionEnd(event);
      case "summarization_retry_scheduled":
        this.summaryRetryKey ??= this.transcript.newKey("summary-retry");
        this.banner(this.summaryRetryKey, "warning", `Summary failed: ${event.errorMessage}. Retrying in ${seconds(event.delayMs)} (attempt ${event.attempt} of ${event.maxAttempts}).`, true);
        return;
      case "summarization_retry_finished":
        if (this.summaryRetryKey) this.transcript.update(this.summaryRetryKey, "banner", { active: false });
        this.summaryRetryKey = undefined;
        return;
      case "bash_execution_update":
        if (this.runningBash) this.transcript.setOutput(this.runningBash, event.delta, false);
        return;
      case "extension_error":
        this.transcript.add({ kind: "error", text: `Extension error (${event.event}, ${event.extensionPath}): ${event.error}` });
        return;
      case "notice":
        if (event.message) this.transcript.add({ kind: "notice", text: event.message });
        return;
    }
  }

  /** Shows a session's messages (get_messages) as if they had just streamed. */
  replay(messages: AgentMessage[]): void {
    const steps = this.replaySteps(messages);
    while (!steps.next().done);
  }

  /**
   * The same, `slice` messages at a time: `pause` runs between slices (the extension host's other
   * work gets its turn: 20,000 messages took 130–240 ms in one task) and says whether to go on.
   * False when it stopped.
   */
  async replayInSlices(messages: AgentMessage[], pause: () => Promise<boolean>, slice = 1000): Promise<boolean> {
    const steps = this.replaySteps(messages);
    for (let n = 1; !steps.next().done; n++) {
      if (n % slice === 0 && !(await pause())) {
        steps.return();
        return false;
      }
    }
    return true;
  }

  /** One step per message. */
  private *replaySteps(messages: AgentMessage[]): Generator<void, void, void> {
    const calls = new Map<string, ToolCall>();
    try {
      for (const message of messages) {
        if (message.role === "toolResult") {
          const call = calls.get(message.toolCallId);
          const ids = { toolCallId: message.toolCallId, toolName: message.toolName };
          this.apply({ type: "tool_execution_start", ...ids, args: call?.arguments ?? {} });
          this.tools.untimed(message.toolCallId);
          this.apply({ type: "tool_execution_end", ...ids, result: { content: message.content, details: message.details }, isError: message.isError });
        } else {
          this.apply({ type: "message_start", message });
          this.apply({ type: "message_end", message });
          if (message.role === "assistant") for (const c of message.content) if (c.type === "toolCall") calls.set(c.id, c);
        }
        yield;
      }
    } finally {
      this.assistant.finish();
    }
  }

  /** A `!command` the user ran; its output streams through bash_execution_update. */
  bashStarted(command: string, excluded: boolean): string {
    const key = this.transcript.newKey("bash");
    this.runningBash = key;
    this.transcript.upsert({ key, kind: "bash", command, output: "", running: true, excluded });
    return key;
  }

  bashFinished(key: string, result: BashResult | undefined, error?: string): void {
    if (this.runningBash === key) this.runningBash = undefined;
    const item = this.transcript.get(key, "bash");
    if (!item) return;
    this.transcript.upsert({
      ...item,
      output: result ? result.output : `${item.output}${error ? `\n${error}` : ""}`,
      running: false,
      exitCode: result ? (result.exitCode ?? null) : null,
      cancelled: result?.cancelled ?? false,
      truncated: result?.truncated ?? false,
    });
  }

  private messageStart(message: AgentMessage): void {
    switch (message.role) {
      case "user":
        this.transcript.add({ key: this.transcript.newKey("user"), kind: "user", text: contentText(message.content), images: imageCount(message.content) || undefined });
        return;
      case "assistant":
        this.assistant.start(message);
        return;
      case "custom":
        if (message.display) this.transcript.add({ kind: "notice", title: noticeTitle(message.customType), text: modeChangeForUser(message) ?? contentText(message.content) });
        return;
      case "compactionSummary":
        return this.addSummary(message.summary, message.tokensBefore);
      case "branchSummary":
        this.transcript.add({ kind: "notice", title: "Branch summary", text: message.summary });
        return;
      case "bashExecution":
        if (this.runningBash) return; // shown by bashStarted
        this.transcript.add({ kind: "bash", command: message.command, output: message.output, exitCode: message.exitCode ?? null, cancelled: message.cancelled, truncated: message.truncated, excluded: message.excludeFromContext });
        return;
    }
  }

  /** The cards of the tools running now, in the order they started. */
  get runningTools(): string[] {
    return this.tools.running;
  }

  /**
   * A question about the tool of this card is open (chat-dialogs.ts links them): the wait is the
   * user's, not the tool's, so its card's time stops until the returned function is called.
   */
  questionOpen(toolKey: string): () => void {
    return this.tools.questionOpen(toolKey);
  }

  private compactionEnd(event: EventOf<"compaction_end"> | EventOf<"auto_compaction_end">): void {
    const key = this.compactionKey ?? this.transcript.newKey("compaction");
    this.compactionKey = undefined;
    const errorMessage = "errorMessage" in event ? event.errorMessage : undefined;
    if (event.aborted) this.banner(key, "warning", "Compaction cancelled.", false);
    else if (event.result) {
      this.transcript.remove(key);
      this.addSummary(event.result.summary, event.result.tokensBefore);
    } else if (errorMessage) this.compactionFailed(key, errorMessage);
    else this.transcript.remove(key);
  }

  /** Pi and our host say "Compaction failed: …" themselves; a session too short to compact is no failure. */
  private compactionFailed(key: string, errorMessage: string): void {
    if (/nothing to compact/i.test(errorMessage)) return this.banner(key, "info", "Nothing to compact yet: the conversation is still short.", false);
    this.banner(key, "error", /^compaction failed/i.test(errorMessage) ? errorMessage : `Compaction failed: ${errorMessage}`, false);
  }

  private addSummary(summary: string, tokensBefore: number): void {
    if (summary === this.lastSummary) return;
    this.lastSummary = summary;
    this.transcript.add({ kind: "compaction", summary, tokensBefore });
  }

  private banner(key: string, tone: "info" | "warning" | "error", text: string, active: boolean): void {
    this.transcript.upsert({ key, kind: "banner", tone, text, active });
  }

  dispose(): void {
    this.tools.dispose();
  }
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 100) / 10)} s`;
}

/** Titles of our own notes; an extension's type is shown in words ("my_note" → "My note"). */
/** Our host's mode-change note in the user's words (its content is what the model is told), when its details say which change. */
function modeChangeForUser(message: { customType: string; details?: unknown }): string | undefined {
  if (message.customType !== "permission_mode" || typeof message.details !== "object" || message.details === null) return undefined;
  const { from, to } = message.details as { from?: unknown; to?: unknown };
  const known = (mode: unknown): mode is PermissionMode => typeof mode === "string" && (permissionModes as readonly string[]).includes(mode);
  if (!known(from) || !known(to)) return undefined;
  if (to === "plan") return "Plan mode: only read-only tools run until you approve the plan.";
  if (from === "plan") return `Left plan mode for ${permissionModeInfo[to].label} (${permissionModeInfo[to].detail.toLowerCase()}).`;
  return `${permissionModeInfo[to].label} mode: ${permissionModeInfo[to].detail.toLowerCase()}.`;
}

const noticeTitles: Record<string, string> = { permission_mode: "Mode changed", plan: "Plan edited by you" };

export function noticeTitle(customType: string): string {
  const known = Object.hasOwn(noticeTitles, customType) ? noticeTitles[customType] : undefined;
  if (known) return known;
  const words = customType.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : "Note";
}

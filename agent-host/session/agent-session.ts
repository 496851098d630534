import { Emitter, type Event } from "../agent/emitter";
import type { CompactionResult, AgentEvent as WireEvent, ImageContent, SessionState } from "../../shared/protocol";
import { estimateContextTokens, isContextOverflow, shouldAutoCompact } from "./compaction";
import { isTransientErrorText } from "../ai/errors";
import type { AssistantMessage, Model, ThinkingLevel } from "../ai/types";
import type { Agent } from "../agent/agent";
import type { AgentEvent, AgentMessage } from "../agent/types";
import { userText } from "./message-text";
import type { SessionManager } from "./session-manager";
import type { Settings } from "./settings";
import { systemMessageUpdate } from "./system-message";
import { toWireEvent } from "./wire-events";
import { replaceWithNotice, UnpersistableEntryError } from "./unsaveable";

export interface AgentSessionDeps {
  agent: Agent;
  sessions: SessionManager;
  settings: Settings;
  /** False while no model is configured: prompts then fail with a clear message. */
  hasModel?: boolean;
  /** Expands `/skill:x` and `/template args`; returns the text unchanged otherwise. */
  expandInput?: (text: string) => string;
  /** Summarizes older context into a compaction entry and reloads the agent's context. */
  compactor?: (customInstructions: string | undefined, signal: AbortSignal) => Promise<CompactionResult>;
  /** The system prompt's named sections, recorded as a `role:"system"` message before a prompt when they (or the tools) changed, as pi 0.87 does. */
  systemSections?: () => Record<string, string>;
}

const NO_MODEL =
  "No model available: set an API key (e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY), add a provider to models.json, or pass --provider/--model.";
const BUSY = "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

/**
 * Ties the agent to its session file and to the protocol: persists every message, turns agent
 * events into wire events, retries transient failures with back-off, and says when a run has
 * settled (nothing automatic left to do).
 */
export class AgentSession {
  private readonly eventEmitter = new Emitter<WireEvent>();
  readonly onEvent: Event<WireEvent> = this.eventEmitter.event;
  readonly agent: Agent;
  readonly sessions: SessionManager;
  settings: Settings;
  autoRetry: boolean;
  autoCompaction: boolean;
  /** `--event-snapshots`: message_update also carries the cumulative message (off by default). */
  eventSnapshots = false;
  hasModel: boolean;
  private run: Promise<void> | undefined;
  private compacting: AbortController | undefined;
  private overflowRecovered = false;
  private retryAttempt = 0;
  private retryTimer: { cancel(): void } | undefined;
  private abortRequested = false;

  constructor(private readonly deps: AgentSessionDeps) {
    this.agent = deps.agent;
    this.sessions = deps.sessions;
    this.settings = deps.settings;
    this.autoRetry = deps.settings.retry.enabled;
    this.autoCompaction = deps.settings.compaction.enabled;
    this.hasModel = deps.hasModel ?? true;
    this.agent.onEvent((event) => this.onAgentEvent(event));
    this.agent.onQueueChange((queues) => {
      // pi reports a dequeued message when it starts (before its message_start), not when the loop takes it.
      if (queues.change === "take") this.dequeued = true;
      else this.emitQueue(queues);
    });
  }

  get isStreaming(): boolean {
    return this.run !== undefined;
  }

  get model(): Model {
    return this.agent.model;
  }

  emit(event: WireEvent): void {
    this.eventEmitter.fire(event);
  }

  private dequeued = false;

  private emitQueue(queues: { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] }): void {
    this.emit({ type: "queue_update", steering: queues.steering.map(userText), followUp: queues.followUp.map(userText) });
  }

  /** Starts a run, or queues the message when one is going; says which (Pi 1.5's disposition). */
  prompt(text: string, images: ImageContent[] = [], behavior?: "steer" | "followUp"): "started" | "queued" {
    if (!this.hasModel) throw new Error(NO_MODEL);
    const message = this.userMessage(text, images);
    if (this.isStreaming) {
      if (!behavior) throw new Error(BUSY);
      if (behavior === "steer") this.agent.steer(message);
      else this.agent.followUp(message);
      return "queued";
    }
    const sections = this.deps.systemSections?.();
    const system = sections ? systemMessageUpdate(this.agent.messages, sections, this.agent.tools) : undefined;
    this.startRun(() => this.agent.prompt(system ? [system, message] : message));
    return "started";
  }

  /** Starts a run with a prepared message (an extension's), or queues it while a run is going. */
  promptMessage(message: AgentMessage, behavior: "steer" | "followUp" = "followUp"): void {
    if (!this.hasModel) throw new Error(NO_MODEL);
    if (!this.isStreaming) return this.startRun(() => this.agent.prompt(message));
    if (behavior === "steer") this.agent.steer(message);
    else this.agent.followUp(message);
  }

  steer(text: string, images: ImageContent[] = []): void {
    this.agent.steer(this.userMessage(text, images));
  }

  followUp(text: string, images: ImageContent[] = []): void {
    this.agent.followUp(this.userMessage(text, images));
  }

  /** Aborts the run (and a pending retry); resolves when everything has settled. */
  async abort(): Promise<void> {
    this.abortRequested = true;
    this.retryTimer?.cancel();
    this.compacting?.abort();
    await this.agent.abort();
    await this.run;
  }

  cancelRetry(): void {
    this.retryTimer?.cancel();
  }

  waitForSettled(): Promise<void> {
    return this.run ?? Promise.resolve();
  }

  private userMessage(text: string, images: ImageContent[]): AgentMessage {
    const expanded = this.deps.expandInput ? this.deps.expandInput(text) : text;
    return { role: "user", content: [{ type: "text", text: expanded }, ...images], timestamp: Date.now() };
  }

  /** Awaited before a run counts as settled: extensions finish handling the run's events first (their errors come before agent_settled). */
  beforeSettle: (() => Promise<void>) | undefined;

  private startRun(first: () => Promise<void>): void {
    this.abortRequested = false;
    this.retryAttempt = 0;
    this.retryGaveUp = false;
    this.overflowRecovered = false;
    this.run = this.drive(first)
      .then(() => this.beforeSettle?.())
      .catch(() => undefined)
      .finally(() => {
        this.run = undefined;
        this.emit({ type: "agent_settled" });
      });
  }

  /** The run, then as many retries as the policy allows, then compaction if the context overflowed or grew past the threshold. */
  private async drive(first: () => Promise<void>): Promise<void> {
    // pi answers the prompt before the run's first event (agent_start): start on the next tick.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.abortRequested) return;
    await first().catch((error: unknown) => this.reportFailure(error));
    for (;;) {
      while (this.pendingRetry) {
        this.pendingRetry = false;
        const proceed = await this.waitBeforeRetry();
        if (!proceed) break;
        await this.agent.continue().catch((error: unknown) => this.reportFailure(error));
      }
      if (!this.pendingOverflow) break;
      this.pendingOverflow = false;
      this.overflowRecovered = true;
      this.dropFailedReply();
      const compacted = await this.compact("overflow").then(() => true, () => false);
      if (!compacted || this.abortRequested) break;
      await this.agent.continue().catch((error: unknown) => this.reportFailure(error));
    }
    if (this.abortRequested || !this.autoCompaction || !this.deps.compactor) return;
    const { tokens } = estimateContextTokens(this.agent.messages);
    if (shouldAutoCompact(tokens, this.agent.model.contextWindow, this.settings.compaction)) await this.compact("threshold").catch(() => undefined);
  }

  private pendingOverflow = false;

  get isCompacting(): boolean {
    return this.compacting !== undefined;
  }

  /**
   * Summarizes older context (manual, at the threshold, or after an overflow), with pi's events.
   * `abort` cancels it.
   */
  async compact(reason: "manual" | "threshold" | "overflow", customInstructions?: string): Promise<CompactionResult> {
    const compactor = this.deps.compactor;
    if (!compactor) throw new Error("Compaction is not available");
    if (this.compacting) throw new Error("Compaction is already running");
    const controller = new AbortController();
    this.compacting = controller;
    this.emit({ type: "compaction_start", reason });
    try {
      const result = await compactor(customInstructions, controller.signal);
      this.emit({ type: "compaction_end", reason, result, aborted: false, willRetry: reason === "overflow" });
      return result;
    } catch (error) {
      const aborted = controller.signal.aborted;
      const message = error instanceof Error ? error.message : String(error);
      this.emit({ type: "compaction_end", reason, aborted, willRetry: false, ...(aborted ? {} : { errorMessage: `Compaction failed: ${message}` }) });
      throw aborted ? new Error("Compaction cancelled") : error;
    } finally {
      this.compacting = undefined;
    }
  }

  cancelCompaction(): void {
    this.compacting?.abort();
  }

  private pendingRetry = false;
  private retryGaveUp = false;

  /** A context overflow is compacted and retried once per run (as pi does). */
  private willRecoverOverflow(message: AssistantMessage | undefined): boolean {
    if (!message || !this.deps.compactor || this.abortRequested || this.overflowRecovered) return false;
    return isContextOverflow(message, this.agent.model.contextWindow);
  }

  private willRetry(message: AssistantMessage | undefined): boolean {
    if (!message || message.stopReason !== "error" || !this.autoRetry || this.abortRequested || this.retryGaveUp) return false;
    if (!isTransientErrorText(message.errorMessage ?? "") || isContextOverflow(message, this.agent.model.contextWindow)) return false;
    return this.retryAttempt < this.settings.retry.maxRetries;
  }

  private async waitBeforeRetry(): Promise<boolean> {
    const errorMessage = this.lastAssistant()?.errorMessage ?? "error";
    this.retryAttempt++;
    const { baseDelayMs, maxAgentDelayMs, maxRetries } = this.settings.retry;
    const delayMs = Math.min(baseDelayMs * 2 ** (this.retryAttempt - 1), maxAgentDelayMs);
    this.emit({ type: "auto_retry_start", attempt: this.retryAttempt, maxAttempts: maxRetries, delayMs, errorMessage });
    this.dropFailedReply();
    const completed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), delayMs);
      this.retryTimer = { cancel: () => (clearTimeout(timer), resolve(false)) };
    });
    this.retryTimer = undefined;
    if (!completed) this.emit({ type: "auto_retry_end", success: false, attempt: this.retryAttempt, finalError: "Retry cancelled" });
    return completed;
  }

  /** The failed reply leaves the model's context (a context_edit entry); the raw history keeps it. */
  private dropFailedReply(): void {
    const messages = this.agent.messages;
    const last = messages.at(-1);
    if (last?.role !== "assistant") return;
    messages.pop();
    const leaf = this.sessions.branch().at(-1);
    if (leaf?.type === "message" && leaf.message === last) {
      const entry = this.sessions.append({ type: "context_edit", targetId: leaf.id, replacement: null });
      this.emit({ type: "entry_appended", entry });
    }
  }

  private onAgentEvent(event: AgentEvent): void {
    if (event.type === "agent_end") {
      const last = this.lastAssistant();
      this.pendingRetry = this.willRetry(last);
      this.pendingOverflow = !this.pendingRetry && this.willRecoverOverflow(last);
      this.emit(toWireEvent(event, this.pendingRetry || this.pendingOverflow, this.eventSnapshots));
      return;
    }
    if (event.type === "message_end") this.persistMessage(event.message);
    if (event.type === "message_start" && event.message.role === "user" && this.dequeued) {
      this.dequeued = false;
      this.emitQueue(this.agent.queueState());
    }
    this.emit(toWireEvent(event, false, this.eventSnapshots));
    if (event.type === "message_end" && event.message.role === "assistant" && this.retryAttempt > 0) {
      // pi reports the outcome of a retry right after the retried reply ends.
      const failed = event.message.stopReason === "error";
      if (!failed) this.emit({ type: "auto_retry_end", success: true, attempt: this.retryAttempt });
      else if (!this.willRetry(event.message)) {
        this.emit({ type: "auto_retry_end", success: false, attempt: this.retryAttempt, finalError: event.message.errorMessage ?? "error" });
        this.retryGaveUp = true;
      }
    }
  }

  /** Saves a message; one that cannot be saved becomes, in place, a notice that is (the run goes on). */
  private persistMessage(message: AgentMessage): void {
    try {
      this.sessions.appendMessage(message);
    } catch (error) {
      if (!(error instanceof UnpersistableEntryError)) throw error;
      replaceWithNotice(message, `${error.message} It was replaced by this notice.`);
      this.sessions.appendMessage(message);
    }
  }

  private lastAssistant(): AssistantMessage | undefined {
    const last = this.agent.messages.at(-1);
    return last?.role === "assistant" ? last : undefined;
  }

  private reportFailure(error: unknown): void {
    this.emit({ type: "extension_error", extensionPath: "<agent-host>", event: "run", error: error instanceof Error ? error.message : String(error) });
  }

  state(): SessionState {
    return {
      ...(this.hasModel ? { model: this.agent.model as SessionState["model"] } : {}),
      thinkingLevel: this.agent.thinkingLevel,
      isStreaming: this.isStreaming,
      isCompacting: this.isCompacting,
      steeringMode: this.agent.steeringMode,
      followUpMode: this.agent.followUpMode,
      ...(this.sessions.sessionFile ? { sessionFile: this.sessions.sessionFile } : {}),
      sessionId: this.sessions.sessionId,
      ...(this.sessions.name ? { sessionName: this.sessions.name } : {}),
      autoCompactionEnabled: this.autoCompaction,
      messageCount: this.agent.messages.length,
      pendingMessageCount: this.agent.pendingCount,
    };
  }

  setThinkingLevel(level: ThinkingLevel): void {
    if (this.agent.thinkingLevel === level) return;
    this.agent.thinkingLevel = level;
    this.sessions.append({ type: "thinking_level_change", thinkingLevel: level });
    this.emit({ type: "thinking_level_changed", level });
  }
}

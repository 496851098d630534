import type { AgentEvent as WireEvent, CompactionResult, ImageContent, SessionState } from "../../../shared/protocol";
import type { Agent } from "../../agent/agent";
import { Emitter, type Disposable, type Event } from "../../agent/emitter";
import type { AgentMessage } from "../../agent/types";
import type { ThinkingLevel } from "../../ai/types";
import type { SessionManager } from "../persistence/session-manager";
import type { Settings } from "../settings";
import { AgentEventRecorder } from "./agent-event-recorder";
import { AutoRetry } from "./auto-retry";
import { CompactionRunner, type CompactionReason, type Compactor } from "./compaction-runner";
import { OverflowRecovery } from "./overflow-recovery";
import { RunDriver } from "./run-driver";
import { systemMessageUpdate } from "./system-message";

export interface HostSessionOptions {
  agent: Agent;
  sessions: SessionManager;
  settings: Settings;
  /** False while no model is configured: prompts then fail with a clear message. */
  hasModel?: boolean;
  /** Expands `/skill:x` and `/template args`; returns the text unchanged otherwise. */
  expandInput?: (text: string) => string;
  compactor?: Compactor;
  /** `--event-snapshots`: message_update also carries the cumulative message (off by default). */
  eventSnapshots?: boolean;
  /** The system prompt's named sections, recorded as a `role:"system"` message before a prompt when they (or the tools) changed, as pi 0.87 does. */
  systemSections?: () => Record<string, string>;
}

const NO_MODEL =
  "No model available: set an API key (e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY), add a provider to models.json, or pass --provider/--model.";
const BUSY = "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

/**
 * The host's session (not the editor's `AgentSession`, which is a chat tab): the agent tied to its
 * session file and to the protocol. What the RPC handlers call; the jobs live beside it: runs
 * (run-driver.ts, auto-retry.ts, overflow-recovery.ts), compaction events (compaction-runner.ts),
 * recording and wire conversion of the agent's events (agent-event-recorder.ts).
 */
export class HostSession implements Disposable {
  private readonly eventEmitter = new Emitter<WireEvent>();
  readonly onEvent: Event<WireEvent> = this.eventEmitter.event;
  readonly agent: Agent;
  readonly sessions: SessionManager;
  hasModel: boolean;
  private readonly autoRetryPolicy: AutoRetry;
  private readonly compaction: CompactionRunner;
  private readonly driver: RunDriver;
  private readonly recorder: AgentEventRecorder;

  constructor(private readonly options: HostSessionOptions) {
    this.agent = options.agent;
    this.sessions = options.sessions;
    this.hasModel = options.hasModel ?? true;
    const emit = (event: WireEvent) => this.emit(event);
    this.autoRetryPolicy = new AutoRetry(options.settings.retry, emit);
    this.compaction = new CompactionRunner(options.compactor, emit);
    this.driver = new RunDriver({
      agent: this.agent,
      autoRetry: this.autoRetryPolicy,
      overflow: new OverflowRecovery(options.compactor !== undefined),
      compaction: this.compaction,
      compactionSettings: options.settings.compaction,
      dropFailedReply: () => this.recorder.dropFailedReply(),
      emit,
    });
    this.recorder = new AgentEventRecorder(this.agent, this.sessions, emit, this.driver, options.eventSnapshots ?? false);
  }

  get isStreaming(): boolean {
    return this.driver.isRunning;
  }

  get isCompacting(): boolean {
    return this.compaction.isCompacting;
  }

  /** `set_auto_retry`. */
  get autoRetry(): boolean {
    return this.autoRetryPolicy.enabled;
  }
  set autoRetry(enabled: boolean) {
    this.autoRetryPolicy.enabled = enabled;
  }

  /** `set_auto_compaction`. */
  get autoCompaction(): boolean {
    return this.driver.autoCompaction;
  }
  set autoCompaction(enabled: boolean) {
    this.driver.autoCompaction = enabled;
  }

  emit(event: WireEvent): void {
    this.eventEmitter.fire(event);
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
    const sections = this.options.systemSections?.();
    const system = sections ? systemMessageUpdate(this.agent.messages, sections, this.agent.tools) : undefined;
    this.driver.start(() => this.agent.prompt(system ? [system, message] : message));
    return "started";
  }

  /** Starts a run with a prepared message (an extension's), or queues it while a run is going. */
  promptMessage(message: AgentMessage, behavior: "steer" | "followUp" = "followUp"): void {
    if (!this.hasModel) throw new Error(NO_MODEL);
    if (!this.isStreaming) return this.driver.start(() => this.agent.prompt(message));
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
  abort(): Promise<void> {
    return this.driver.abort();
  }

  cancelRetry(): void {
    this.autoRetryPolicy.cancel();
  }

  waitForSettled(): Promise<void> {
    return this.driver.settled();
  }

  /** `wait` is awaited before each run counts as settled: extensions finish handling the run's events first (their errors come before agent_settled). */
  onBeforeSettle(wait: () => Promise<void>): Disposable {
    return this.driver.onBeforeSettle(wait);
  }

  /** Summarizes older context (manual, at the threshold, or after an overflow), with pi's events; `abort` cancels it. */
  compact(reason: CompactionReason, customInstructions?: string): Promise<CompactionResult> {
    return this.compaction.compact(reason, customInstructions);
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

  dispose(): void {
    this.recorder.dispose();
    this.eventEmitter.dispose();
  }

  private userMessage(text: string, images: ImageContent[]): AgentMessage {
    const expanded = this.options.expandInput ? this.options.expandInput(text) : text;
    return { role: "user", content: [{ type: "text", text: expanded }, ...images], timestamp: Date.now() };
  }
}

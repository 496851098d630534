import { Emitter, type Disposable, type Event } from "./emitter";
import type { AssistantMessage, Model, ThinkingLevel } from "../ai/types";
import { runAgentLoop } from "./agent-loop";
import { MessageQueue, type QueueChange } from "./message-queue";
import type { AnyAgentTool } from "./tool";
import type { AgentEvent, AgentLoopConfig, AgentMessage, InterruptMode, QueueMode } from "./types";

export interface AgentOptions extends Omit<AgentLoopConfig, "takeSteering" | "hasSteering" | "takeFollowUps" | "model" | "thinkingLevel" | "tools" | "systemPrompt" | "interruptMode"> {
  model: Model;
  thinkingLevel?: ThinkingLevel;
  tools?: AnyAgentTool[];
  /** A function is called on the first model request (building it reads files and the clock's time zone). */
  systemPrompt?: string | (() => string);
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  interruptMode?: InterruptMode;
  messages?: AgentMessage[];
}

export type AgentHooks = Partial<Pick<AgentLoopConfig, "beforeToolCall" | "afterToolCall" | "transformContext">>;

export interface QueueState {
  steering: AgentMessage[];
  followUp: AgentMessage[];
  /** In change notifications: what changed the queues. */
  change?: QueueChange;
}

/**
 * The agent: its conversation, model, tools and queues, and at most one run at a time. Listeners
 * get every event of a run; queue changes are reported separately.
 */
export class Agent implements Disposable {
  readonly messages: AgentMessage[];
  model: Model;
  thinkingLevel: ThinkingLevel;
  tools: AnyAgentTool[];
  private systemPromptSource: string | (() => string);
  interruptMode: InterruptMode;
  private readonly eventEmitter = new Emitter<AgentEvent>();
  private readonly queueEmitter = new Emitter<QueueState>();
  readonly onEvent: Event<AgentEvent> = this.eventEmitter.event;
  readonly onQueueChange: Event<QueueState> = this.queueEmitter.event;
  private readonly steering: MessageQueue;
  private readonly followUps: MessageQueue;
  private controller: AbortController | undefined;
  private running: Promise<void> | undefined;
  /** The assistant message being streamed, if any. */
  streaming: AssistantMessage | undefined;
  /** Tool and context hooks set after construction (extensions); they take the place of the options' ones. */
  private hooks: AgentHooks = {};

  get systemPrompt(): string {
    if (typeof this.systemPromptSource === "function") this.systemPromptSource = this.systemPromptSource();
    return this.systemPromptSource;
  }

  set systemPrompt(prompt: string) {
    this.systemPromptSource = prompt;
  }

  constructor(private readonly options: AgentOptions) {
    this.model = options.model;
    this.thinkingLevel = options.thinkingLevel ?? "off";
    this.tools = options.tools ?? [];
    this.systemPromptSource = options.systemPrompt ?? "";
    this.interruptMode = options.interruptMode ?? "wait";
    this.messages = options.messages ?? [];
    const changed = (change: QueueChange) => this.queueEmitter.fire({ ...this.queueState(), change });
    this.steering = new MessageQueue(options.steeringMode, changed);
    this.followUps = new MessageQueue(options.followUpMode, changed);
  }

  /** The running run's abort signal; undefined while idle. */
  get signal(): AbortSignal | undefined {
    return this.controller?.signal;
  }

  setHooks(hooks: AgentHooks): void {
    this.hooks = { ...hooks };
  }

  /**
   * Which of the tools a request declares to the model (MCP codemode's `only` mode hides the ones
   * scripts call); the others stay callable, by scripts through the nested runner.
   */
  declareTools(filter: ((tools: AnyAgentTool[]) => AnyAgentTool[]) | undefined): void {
    this.declaredFilter = filter;
  }

  private declaredFilter: ((tools: AnyAgentTool[]) => AnyAgentTool[]) | undefined;

  /** A check that runs before every tool call, ahead of the hooks (e.g. the permission policy). */
  gateToolCalls(gate: NonNullable<AgentLoopConfig["beforeToolCall"]>): void {
    this.gate = gate;
  }

  private gate: AgentLoopConfig["beforeToolCall"];

  private beforeToolCall(): AgentLoopConfig["beforeToolCall"] {
    const gate = this.gate;
    const hook = this.hooks.beforeToolCall ?? this.options.beforeToolCall;
    if (!gate) return hook;
    return async (call, signal) => {
      const verdict = await gate(call, signal);
      if (verdict?.block) return verdict;
      return hook ? hook(call, signal) : verdict;
    };
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  get steeringMode(): QueueMode {
    return this.steering.mode;
  }
  set steeringMode(mode: QueueMode) {
    this.steering.mode = mode;
  }
  get followUpMode(): QueueMode {
    return this.followUps.mode;
  }
  set followUpMode(mode: QueueMode) {
    this.followUps.mode = mode;
  }

  queueState(): QueueState {
    return { steering: [...this.steering.peek()], followUp: [...this.followUps.peek()] };
  }

  get pendingCount(): number {
    return this.steering.length + this.followUps.length;
  }

  /** Starts a run with these messages; rejects if a run is already going (queue them instead). */
  prompt(messages: AgentMessage | AgentMessage[]): Promise<void> {
    if (this.running) return Promise.reject(new Error("Agent is already processing. Queue the message as steering or follow-up."));
    return this.run(Array.isArray(messages) ? messages : [messages]);
  }

  /** Runs again from the current conversation (after an error was removed, or to drain queues). */
  continue(): Promise<void> {
    if (this.running) return Promise.reject(new Error("Agent is already processing."));
    // Queued steering is taken by the loop's first turn; follow-ups only when nothing steers.
    const queued = this.steering.length > 0 ? [] : this.followUps.take();
    return this.run(queued);
  }

  steer(message: AgentMessage): void {
    this.steering.push(message);
  }

  followUp(message: AgentMessage): void {
    this.followUps.push(message);
  }

  clearQueues(): QueueState {
    const steering = this.steering.clear(false);
    const followUp = this.followUps.clear(false);
    // Reported even when nothing was queued, as pi does.
    this.queueEmitter.fire({ ...this.queueState(), change: "clear" });
    return { steering, followUp };
  }

  /** Aborts the run; resolves once it has ended. Queued messages stay queued. */
  async abort(): Promise<void> {
    this.controller?.abort();
    await this.running;
  }

  waitForIdle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private run(prompts: AgentMessage[]): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const agent = this;
    const config: AgentLoopConfig = {
      ...this.options,
      ...this.hooks,
      beforeToolCall: this.beforeToolCall(),
      model: this.model,
      thinkingLevel: this.thinkingLevel,
      // Read at each model call: a tool declared during a run (tool_search) is there from the next call on.
      get tools() {
        return agent.tools;
      },
      systemPrompt: this.systemPrompt,
      interruptMode: this.interruptMode,
      ...(this.declaredFilter ? { declaredTools: this.declaredFilter } : {}),
      takeSteering: () => this.steering.take(),
      hasSteering: () => this.steering.length > 0,
      takeFollowUps: () => this.followUps.take(),
    };
    const emit = (event: AgentEvent) => {
      if (event.type === "message_start" && event.message.role === "assistant") this.streaming = event.message;
      else if (event.type === "message_update") this.streaming = event.message;
      else if (event.type === "message_end" && event.message.role === "assistant") this.streaming = undefined;
      this.eventEmitter.fire(event);
    };
    this.running = runAgentLoop(prompts, this.messages, config, emit, controller.signal)
      .then(() => undefined)
      .finally(() => {
        this.running = undefined;
        this.controller = undefined;
        this.streaming = undefined;
      });
    return this.running;
  }

  setTools(tools: AnyAgentTool[]): void {
    this.tools = tools;
  }

  dispose(): void {
    this.controller?.abort();
    this.eventEmitter.dispose();
    this.queueEmitter.dispose();
  }
}

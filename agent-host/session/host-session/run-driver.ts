/**
 * One run, from the prompt until nothing automatic is left to do: the agent's turns, then as many
 * retries as auto-retry allows, a compaction and a continuation after a context overflow, and a
 * compaction when the context grew past the threshold. Ends with `agent_settled`, after anything
 * that asked to finish first (extensions handling the run's events).
 */
import type { AgentEvent as WireEvent } from "../../../shared/protocol";
import type { Agent } from "../../agent/agent";
import type { Disposable } from "../../agent/emitter";
import type { AssistantMessage } from "../../ai/types";
import { estimateContextTokens, shouldAutoCompact } from "../compaction";
import type { Settings } from "../settings";
import type { AutoRetry } from "./auto-retry";
import type { CompactionRunner } from "./compaction-runner";
import type { OverflowRecovery } from "./overflow-recovery";
import { errorText } from "../../../shared/error-text";

export interface RunDriverParts {
  agent: Agent;
  autoRetry: AutoRetry;
  overflow: OverflowRecovery;
  compaction: CompactionRunner;
  compactionSettings: Settings["compaction"];
  /** The failed last reply leaves the model's context (before a retry or an overflow recovery). */
  dropFailedReply(): void;
  emit(event: WireEvent): void;
}

export class RunDriver {
  /** `set_auto_compaction`: compact when a run leaves the context past the threshold. */
  autoCompaction: boolean;
  private run: Promise<void> | undefined;
  private abortRequested = false;
  private pendingRetry = false;
  private pendingOverflow = false;
  private readonly settleBarriers = new Set<() => Promise<void>>();

  constructor(private readonly parts: RunDriverParts) {
    this.autoCompaction = parts.compactionSettings.enabled;
  }

  get isRunning(): boolean {
    return this.run !== undefined;
  }

  get aborting(): boolean {
    return this.abortRequested;
  }

  /** Resolves when the current run (if any) has settled. */
  settled(): Promise<void> {
    return this.run ?? Promise.resolve();
  }

  /** `wait` is awaited before each run counts as settled (its failure is reported, the run still settles). */
  onBeforeSettle(wait: () => Promise<void>): Disposable {
    this.settleBarriers.add(wait);
    return { dispose: () => void this.settleBarriers.delete(wait) };
  }

  start(first: () => Promise<void>): void {
    this.abortRequested = false;
    this.parts.autoRetry.reset();
    this.parts.overflow.reset();
    this.run = this.drive(first)
      .then(() => Promise.all([...this.settleBarriers].map((wait) => wait())))
      .then(
        () => undefined,
        (error: unknown) => this.reportFailure(error),
      )
      .finally(() => {
        this.run = undefined;
        this.parts.emit({ type: "agent_settled" });
      });
  }

  /** Aborts the run (a retry's back-off and a compaction too); resolves when it has settled. */
  async abort(): Promise<void> {
    this.abortRequested = true;
    this.parts.autoRetry.cancel();
    this.parts.compaction.cancel();
    await this.parts.agent.abort();
    await this.run;
  }

  /** At agent_end: whether the run goes on (a retry or an overflow recovery follows). */
  agentEnded(last: AssistantMessage | undefined): boolean {
    const contextWindow = this.parts.agent.model.contextWindow;
    this.pendingRetry = !this.abortRequested && this.parts.autoRetry.allows(last, contextWindow);
    this.pendingOverflow = !this.pendingRetry && !this.abortRequested && this.parts.overflow.applies(last, contextWindow);
    return this.pendingRetry || this.pendingOverflow;
  }

  /** At an assistant message_end: a retried reply's outcome. */
  replyEnded(message: AssistantMessage): void {
    this.parts.autoRetry.replyEnded(message, this.parts.agent.model.contextWindow, this.abortRequested);
  }

  private async drive(first: () => Promise<void>): Promise<void> {
    const { agent, autoRetry, overflow, compaction } = this.parts;
    // pi answers the prompt before the run's first event (agent_start): start on the next tick.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.abortRequested) return;
    await first().catch((error: unknown) => this.reportFailure(error));
    for (;;) {
      while (this.pendingRetry) {
        this.pendingRetry = false;
        const proceed = await autoRetry.wait(lastAssistant(agent)?.errorMessage ?? "error", () => this.parts.dropFailedReply());
        if (!proceed) break;
        await agent.continue().catch((error: unknown) => this.reportFailure(error));
      }
      if (!this.pendingOverflow) break;
      this.pendingOverflow = false;
      overflow.begin();
      this.parts.dropFailedReply();
      // A failed compaction has said so in its compaction_end: the run ends there.
      const compacted = await compaction.compact("overflow").then(() => true, () => false);
      if (!compacted || this.abortRequested) break;
      await agent.continue().catch((error: unknown) => this.reportFailure(error));
    }
    if (this.abortRequested || !this.autoCompaction || !compaction.available) return;
    const { tokens } = estimateContextTokens(agent.messages);
    if (shouldAutoCompact(tokens, agent.model.contextWindow, this.parts.compactionSettings)) {
      // Reported by its compaction_end; the run has settled either way.
      await compaction.compact("threshold").catch(() => undefined);
    }
  }

  /** A failure outside the model's reply (which carries its own): an error event, never silence. */
  private reportFailure(error: unknown): void {
    this.parts.emit({ type: "extension_error", extensionPath: "<agent-host>", event: "run", error: errorText(error) });
  }
}

function lastAssistant(agent: Agent): AssistantMessage | undefined {
  const last = agent.messages.at(-1);
  return last?.role === "assistant" ? last : undefined;
}

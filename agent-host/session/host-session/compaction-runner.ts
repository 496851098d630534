/**
 * Compaction as the wire sees it: one at a time, `compaction_start` and `compaction_end` around
 * the summarizer (manual, at the threshold, or after an overflow), cancellable.
 */
import type { CompactionResult, AgentEvent as WireEvent } from "../../../shared/protocol";
import { errorText } from "../../../shared/error-text";

export type CompactionReason = "manual" | "threshold" | "overflow";
/** Summarizes older context into a compaction entry and reloads the agent's context. */
export type Compactor = (customInstructions: string | undefined, signal: AbortSignal) => Promise<CompactionResult>;

export class CompactionRunner {
  private running: AbortController | undefined;

  constructor(
    private readonly compactor: Compactor | undefined,
    private readonly emit: (event: WireEvent) => void,
  ) {}

  get available(): boolean {
    return this.compactor !== undefined;
  }

  get isCompacting(): boolean {
    return this.running !== undefined;
  }

  async compact(reason: CompactionReason, customInstructions?: string): Promise<CompactionResult> {
    const compactor = this.compactor;
    if (!compactor) throw new Error("Compaction is not available");
    if (this.running) throw new Error("Compaction is already running");
    const controller = new AbortController();
    this.running = controller;
    this.emit({ type: "compaction_start", reason });
    try {
      const result = await compactor(customInstructions, controller.signal);
      this.emit({ type: "compaction_end", reason, result, aborted: false, willRetry: reason === "overflow" });
      return result;
    } catch (error) {
      const aborted = controller.signal.aborted;
      const message = errorText(error);
      this.emit({ type: "compaction_end", reason, aborted, willRetry: false, ...(aborted ? {} : { errorMessage: `Compaction failed: ${message}` }) });
      throw aborted ? new Error("Compaction cancelled") : error;
    } finally {
      this.running = undefined;
    }
  }

  cancel(): void {
    this.running?.abort();
  }
}

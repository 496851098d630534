/**
 * Pi's auto-retry: a reply that failed with a transient error (rate limit, overload, a dropped
 * connection) is retried after an exponential back-off, up to `maxRetries` times per run, with
 * pi's `auto_retry_start` / `auto_retry_end` events. A context overflow is never retried here
 * (overflow-recovery.ts compacts instead).
 */
import type { AgentEvent as WireEvent } from "../../../shared/protocol";
import { isTransientErrorText } from "../../ai/errors";
import type { AssistantMessage } from "../../ai/types";
import { isContextOverflow } from "../compaction";
import type { Settings } from "../settings";

export class AutoRetry {
  /** `set_auto_retry`: off, a failed reply ends the run. */
  enabled: boolean;
  private attempt = 0;
  private gaveUp = false;
  private timer: { cancel(): void } | undefined;

  constructor(
    private readonly settings: Settings["retry"],
    private readonly emit: (event: WireEvent) => void,
  ) {
    this.enabled = settings.enabled;
  }

  /** A new run: the attempts start again. */
  reset(): void {
    this.attempt = 0;
    this.gaveUp = false;
  }

  /** The reply failed in a way a retry may fix, and the policy allows one more. */
  allows(message: AssistantMessage | undefined, contextWindow: number): boolean {
    if (!message || message.stopReason !== "error" || !this.enabled || this.gaveUp) return false;
    if (!isTransientErrorText(message.errorMessage ?? "") || isContextOverflow(message, contextWindow)) return false;
    return this.attempt < this.settings.maxRetries;
  }

  /**
   * Counts the attempt, says so (auto_retry_start), runs `beforeWait` (the failed reply leaves the
   * context) and waits the back-off; false when the wait was cancelled (auto_retry_end says so).
   */
  async wait(errorMessage: string, beforeWait: () => void): Promise<boolean> {
    this.attempt++;
    const { baseDelayMs, maxAgentDelayMs, maxRetries } = this.settings;
    const delayMs = Math.min(baseDelayMs * 2 ** (this.attempt - 1), maxAgentDelayMs);
    this.emit({ type: "auto_retry_start", attempt: this.attempt, maxAttempts: maxRetries, delayMs, errorMessage });
    beforeWait();
    const completed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), delayMs);
      this.timer = { cancel: () => (clearTimeout(timer), resolve(false)) };
    });
    this.timer = undefined;
    if (!completed) this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError: "Retry cancelled" });
    return completed;
  }

  /** Cancels a back-off under way (abort_retry, abort). */
  cancel(): void {
    this.timer?.cancel();
  }

  /** pi reports the outcome of a retry right after the retried reply ends. */
  replyEnded(message: AssistantMessage, contextWindow: number, aborting: boolean): void {
    if (this.attempt === 0) return;
    if (message.stopReason !== "error") return this.emit({ type: "auto_retry_end", success: true, attempt: this.attempt });
    if (!aborting && this.allows(message, contextWindow)) return;
    this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError: message.errorMessage ?? "error" });
    this.gaveUp = true;
  }
}

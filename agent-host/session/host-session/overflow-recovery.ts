/**
 * A reply refused because the context overflowed is recovered as pi does: the failed reply
 * leaves the context, older context is compacted, and the run continues; once per run, so a
 * context that still overflows after compaction ends the run instead of looping.
 */
import type { AssistantMessage } from "../../ai/types";
import { isContextOverflow } from "../compaction";

export class OverflowRecovery {
  private used = false;

  /** @param available compaction is possible at all (a compactor is configured). */
  constructor(private readonly available: boolean) {}

  /** A new run: one recovery again. */
  reset(): void {
    this.used = false;
  }

  applies(message: AssistantMessage | undefined, contextWindow: number): boolean {
    return message !== undefined && this.available && !this.used && isContextOverflow(message, contextWindow);
  }

  /** The recovery starts: no other in this run. */
  begin(): void {
    this.used = true;
  }
}

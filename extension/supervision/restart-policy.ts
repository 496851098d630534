/**
 * When to restart a crashed agent: exponential back-off, and a give-up limit of `maxCrashes`
 * crashes within `windowMs` (vscode-languageclient's default: 5 crashes in 3 minutes).
 * Pure: the clock is passed in.
 */
export interface RestartPolicyOptions {
  maxCrashes: number;
  windowMs: number;
  /** Delay before the first restart; doubled for each further crash in the window. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRestartPolicy: RestartPolicyOptions = { maxCrashes: 5, windowMs: 180_000, baseDelayMs: 1000, maxDelayMs: 30_000 };

export type RestartDecision = { restart: true; delayMs: number; crashes: number } | { restart: false; crashes: number };

export class RestartPolicy {
  private crashTimes: number[] = [];

  constructor(public options: RestartPolicyOptions = defaultRestartPolicy) {}

  /** Records a crash at `now` and says whether (and after how long) to restart. */
  crashed(now: number): RestartDecision {
    this.crashTimes = [...this.crashTimes.filter((t) => now - t < this.options.windowMs), now];
    const crashes = this.crashTimes.length;
    if (crashes >= this.options.maxCrashes) return { restart: false, crashes };
    const delayMs = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (crashes - 1));
    return { restart: true, delayMs, crashes };
  }

  /** A restart the user asked for starts a fresh count. */
  reset(): void {
    this.crashTimes = [];
  }
}

/** Samples, summaries and formatting for the benchmark figures. */

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(samples: readonly number[]): Summary | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

/** `items` rotated left by `by`, so that no subject always runs first in a round. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

export type Unit = "ms" | "MB" | "kB" | "B" | "x";

/** A number with a sensible precision for its size. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return "–";
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** "123 (110–140)" */
export function formatSummary(s: Summary | undefined): string {
  if (!s) return "–";
  return s.min === s.max ? num(s.median) : `${num(s.median)} (${num(s.min)}–${num(s.max)})`;
}

/**
 * Samples of one metric, per subject. A subject whose run failed gets an error text instead
 * (shown in the table, e.g. a stack overflow in get_tree).
 */
export class Metric {
  readonly samples = new Map<string, number[]>();
  readonly errors = new Map<string, string>();

  constructor(
    readonly key: string,
    public label: string,
    readonly unit: Unit,
  ) {}

  add(subject: string, value: number): void {
    const list = this.samples.get(subject) ?? [];
    list.push(value);
    this.samples.set(subject, list);
  }

  fail(subject: string, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    this.errors.set(subject, text.split("\n")[0]!.replace(/^[^:]+: /, "").slice(0, 120));
  }

  summary(subject: string): Summary | undefined {
    return summarize(this.samples.get(subject) ?? []);
  }

  cell(subject: string): string {
    const error = this.errors.get(subject);
    if (error && !this.samples.get(subject)?.length) return `error: ${error}`;
    return formatSummary(this.summary(subject));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

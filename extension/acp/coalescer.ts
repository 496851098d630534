/**
 * Keys that changed, handled at most once per interval (and at once on `flush`): a flood of
 * changes costs one call per key per interval, not one per change.
 */
export class Coalescer<K> {
  private readonly pending = new Set<K>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly handle: (key: K) => void,
    private readonly intervalMs: number,
  ) {}

  changed(key: K): void {
    this.pending.add(key);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const keys = [...this.pending];
    this.pending.clear();
    for (const key of keys) this.handle(key);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}

/**
 * A first-in, first-out queue whose `shift` is amortized O(1): `Array.prototype.shift` moves every
 * element, so a queue read one item at a time behind a slow reader turns quadratic (a 4 MB tool
 * call queues ~200,000 deltas). Read items are dropped once they are most of the array.
 */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The first item, taken out; undefined when empty. */
  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head++];
    if (this.head === this.items.length) this.clear();
    else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Everything still queued, in order, and the queue emptied. */
  drain(): T[] {
    const rest = this.items.slice(this.head);
    this.clear();
    return rest;
  }

  private clear(): void {
    this.items = [];
    this.head = 0;
  }
}

import type { ToWebview } from "../../shared/webview-protocol";
import type { AssistantBlock, ChatItem, ChatItemKind, ChatItemOf } from "../../shared/chat-items";

/** What `add` takes: an item without its key (one is made up) or with one. */
export type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, "key"> & { key?: string } : never) : never;

/** The entry a transcript message is about (undefined for a reset and for messages not of the transcript). */
export function entryKeyOf(message: ToWebview): string | undefined {
  switch (message.type) {
    case "upsert":
      return message.item.key;
    case "remove":
    case "append":
    case "output":
      return message.key;
    default:
      return undefined;
  }
}

/** One entry of the transcript's order: a doubly linked list, so a nested card or a question goes in beside its tool in O(1) however long the chat. */
interface Entry {
  item: ChatItem;
  prev?: Entry;
  next?: Entry;
}

/**
 * The chat as the webview shows it. Kept in the extension so a reloaded webview gets the whole
 * transcript back; every change also goes out as one small message (an upsert, a removal, or
 * streamed text for one block), so the webview touches only what changed.
 */
export class Transcript {
  private readonly entries = new Map<string, Entry>();
  private head?: Entry;
  private tail?: Entry;
  private counter = 0;
  private muted = false;
  /** Bumped by each rebuild (replaceAll, clear): a rebuild in slices that is no longer the latest stops. */
  private generation = 0;

  constructor(
    private readonly sink: (message: ToWebview) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private post(message: ToWebview): void {
    if (!this.muted) this.sink(message);
  }

  /** Rebuilds everything (e.g. another session) and sends it as one reset, not one message per change. */
  replaceAll(build: () => void): void {
    this.generation++;
    this.forgetAll();
    this.muted = true;
    try {
      build();
    } finally {
      this.muted = false;
    }
    this.post(this.resetMessage());
  }

  /**
   * replaceAll for a build that yields between slices (a long session's messages): `current()` says
   * whether it is still the latest rebuild. A later one (or clear) ends it: it then sends nothing
   * and leaves the transcript to the later one. True when its reset was sent.
   */
  async replaceAllInSlices(build: (current: () => boolean) => Promise<void>): Promise<boolean> {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    this.forgetAll();
    this.muted = true;
    try {
      await build(current);
    } finally {
      if (current()) this.muted = false;
    }
    if (!current()) return false;
    this.post(this.resetMessage());
    return true;
  }

  /** The message that shows the whole transcript. */
  resetMessage(): ToWebview {
    return { type: "reset", items: this.snapshot(), now: this.now() };
  }

  /**
   * The items in order, as they are: an item is never changed in place (every change replaces it,
   * frozen), so a snapshot stays what it was however the chat goes on, and costs no copy; a reset
   * of 20,000 entries was a 100-300 ms deep copy in the extension host.
   */
  snapshot(): ChatItem[] {
    const items: ChatItem[] = [];
    for (let entry = this.head; entry; entry = entry.next) items.push(entry.item);
    return items;
  }

  get length(): number {
    return this.entries.size;
  }

  get<K extends ChatItemKind>(key: string, kind?: K): ChatItemOf<K> | undefined {
    const found = this.entries.get(key)?.item;
    return found && (!kind || found.kind === kind) ? (found as ChatItemOf<K>) : undefined;
  }

  /** The keys in order. */
  keys(): string[] {
    const keys: string[] = [];
    for (let entry = this.head; entry; entry = entry.next) keys.push(entry.item.key);
    return keys;
  }

  /** A new key, unique within this transcript. */
  newKey(prefix: string): string {
    return `${prefix}-${this.counter++}`;
  }

  add(item: NewItem): ChatItem {
    const full = { ...item, key: item.key ?? this.newKey("local") } as ChatItem;
    this.upsert(full);
    return full;
  }

  /** Adds or replaces an item; a new one goes at the end, or right after the item `after` when there is one. */
  upsert(item: ChatItem, after?: string): void {
    Object.freeze(item);
    const existing = this.entries.get(item.key);
    const anchor = existing === undefined && after !== undefined ? this.entries.get(after) : undefined;
    if (existing) existing.item = item;
    else this.insertAfter({ item }, anchor ?? this.tail);
    this.post({ type: "upsert", item, now: this.now(), ...(anchor === undefined ? {} : { after }) });
  }

  private insertAfter(entry: Entry, anchor: Entry | undefined): void {
    entry.prev = anchor;
    entry.next = anchor ? anchor.next : this.head;
    if (entry.next) entry.next.prev = entry;
    else this.tail = entry;
    if (anchor) anchor.next = entry;
    else this.head = entry;
    this.entries.set(entry.item.key, entry);
  }

  private forgetAll(): void {
    this.entries.clear();
    this.head = this.tail = undefined;
  }

  /** Changes some fields of an item and sends it again. */
  update<K extends ChatItemKind>(key: string, kind: K, change: Partial<Omit<ChatItemOf<K>, "key" | "kind">>): ChatItemOf<K> | undefined {
    const current = this.get(key, kind);
    if (!current) return undefined;
    const next = { ...current, ...change } as ChatItemOf<K>;
    this.upsert(next);
    return next;
  }

  remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    this.entries.delete(key);
    this.post({ type: "remove", key });
  }

  /** Streams text into block `block` of an assistant item, creating blocks up to it. */
  appendBlock(key: string, block: number, blockType: AssistantBlock["type"], text: string): void {
    const entry = this.entries.get(key);
    const item = entry?.item;
    if (item?.kind !== "assistant" || text === "") return;
    const blocks = item.blocks.slice();
    while (blocks.length <= block) blocks.push({ type: blockType, text: "" });
    const target = blocks[block];
    blocks[block] = { type: blockType, text: (target.type === blockType ? target.text : "") + text };
    entry!.item = Object.freeze({ ...item, blocks });
    this.post({ type: "append", key, block, blockType, text });
  }

  /** Live output of a tool or bash item. */
  setOutput(key: string, text: string, replace: boolean): void {
    const entry = this.entries.get(key);
    const item = entry?.item;
    if (!item || (item.kind !== "tool" && item.kind !== "bash")) return;
    entry!.item = Object.freeze({ ...item, output: replace ? text : item.output + text });
    this.post({ type: "output", key, text, replace });
  }

  clear(): void {
    this.generation++;
    this.muted = false; // a rebuild in slices under way ends (it sends nothing)
    this.forgetAll();
    this.post({ type: "reset", items: [], now: this.now() });
  }
}

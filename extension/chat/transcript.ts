import type { AssistantBlock, ChatItem, ChatItemKind, ChatItemOf, ToWebview } from "../../shared/webview-protocol";

/** What `add` takes: an item without its key (one is made up) or with one. */
export type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, "key"> & { key?: string } : never) : never;

/**
 * The chat as the webview shows it. Kept in the extension so a reloaded webview gets the whole
 * transcript back; every change also goes out as one small message (an upsert, a removal, or
 * streamed text for one block), so the webview touches only what changed.
 */
export class Transcript {
  private readonly items: ChatItem[] = [];
  private readonly index = new Map<string, number>();
  private counter = 0;
  private muted = false;

  constructor(
    private readonly sink: (message: ToWebview) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private post(message: ToWebview): void {
    if (!this.muted) this.sink(message);
  }

  /** Rebuilds everything (e.g. another session) and sends it as one reset, not one message per change. */
  replaceAll(build: () => void): void {
    this.items.length = 0;
    this.index.clear();
    this.muted = true;
    try {
      build();
    } finally {
      this.muted = false;
    }
    this.post(this.resetMessage());
  }

  /** The message that shows the whole transcript. */
  resetMessage(): ToWebview {
    return { type: "reset", items: this.snapshot(), now: this.now() };
  }

  snapshot(): ChatItem[] {
    return this.items.map((item) => structuredClone(item));
  }

  get length(): number {
    return this.items.length;
  }

  get<K extends ChatItemKind>(key: string, kind?: K): ChatItemOf<K> | undefined {
    const at = this.index.get(key);
    const found = at === undefined ? undefined : this.items[at];
    return found && (!kind || found.kind === kind) ? (found as ChatItemOf<K>) : undefined;
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
    const at = this.index.get(item.key);
    const anchor = at === undefined && after !== undefined ? this.index.get(after) : undefined;
    if (at !== undefined) {
      this.items[at] = item;
    } else if (anchor === undefined) {
      this.index.set(item.key, this.items.length);
      this.items.push(item);
    } else {
      this.items.splice(anchor + 1, 0, item);
      for (let i = anchor + 1; i < this.items.length; i++) this.index.set(this.items[i].key, i);
    }
    this.post({ type: "upsert", item, now: this.now(), ...(anchor === undefined ? {} : { after }) });
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
    const at = this.index.get(key);
    if (at === undefined) return;
    this.items.splice(at, 1);
    this.index.delete(key);
    for (let i = at; i < this.items.length; i++) this.index.set(this.items[i].key, i);
    this.post({ type: "remove", key });
  }

  /** Streams text into block `block` of an assistant item, creating blocks up to it. */
  appendBlock(key: string, block: number, blockType: AssistantBlock["type"], text: string): void {
    const item = this.get(key, "assistant");
    if (!item || text === "") return;
    while (item.blocks.length <= block) item.blocks.push({ type: blockType, text: "" });
    const target = item.blocks[block];
    if (target.type !== blockType) item.blocks[block] = { type: blockType, text: "" };
    item.blocks[block].text += text;
    this.post({ type: "append", key, block, blockType, text });
  }

  /** Live output of a tool or bash item. */
  setOutput(key: string, text: string, replace: boolean): void {
    const item = this.get(key);
    if (!item || (item.kind !== "tool" && item.kind !== "bash")) return;
    item.output = replace ? text : item.output + text;
    this.post({ type: "output", key, text, replace });
  }

  clear(): void {
    this.items.length = 0;
    this.index.clear();
    this.post({ type: "reset", items: [], now: this.now() });
  }
}

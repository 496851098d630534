import type { ChatItem, ToWebview } from "../../shared/webview-protocol";
import { entryKeyOf, type Transcript } from "./transcript";

/** Entries a reset carries at once (the webview renders the last 40 and keeps the rest as placeholders). */
export const RESET_TAIL = 200;
/** Older entries per `history` message. */
export const HISTORY_BATCH = 1000;
const BATCH_GAP_MS = 16;

/**
 * A long conversation goes to the webview in parts, so that its last message shows at once: the
 * reset carries the newest entries, and the older ones follow in batches, newest first, each put
 * before those shown (a 20,000-message session is 14 MB of entries, seconds through code-server's
 * connection). The batches carry the reset's own items (never changed in place, see Transcript.snapshot); an entry changed before its batch waits
 * for it, which takes the entry as the transcript holds it then (or leaves it out, gone); a new
 * reset drops what was left.
 */
export class HistoryParts {
  /** The reset's copies of the entries still to send, oldest first. */
  private unsent: ChatItem[] = [];
  private readonly unsentKeys = new Set<string>();
  /** Entries not sent yet that changed since the reset: their batch copies them again. */
  private readonly changed = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly transcript: Transcript,
    private readonly post: (message: ToWebview) => void,
  ) {}

  send(message: ToWebview): void {
    if (message.type === "reset") {
      this.stop();
      if (message.items.length <= RESET_TAIL + HISTORY_BATCH / 2) return this.post(message);
      const split = message.items.length - RESET_TAIL;
      this.unsent = message.items.slice(0, split);
      for (const item of this.unsent) this.unsentKeys.add(item.key);
      this.post({ ...message, items: message.items.slice(split) });
      this.timer = setTimeout(() => this.nextBatch(), BATCH_GAP_MS);
      return;
    }
    const key = entryKeyOf(message);
    if (key !== undefined && this.unsentKeys.has(key)) {
      this.changed.add(key); // its batch takes it as it is then
      return;
    }
    this.post(message);
  }

  private nextBatch(): void {
    this.timer = undefined;
    const batch = this.unsent.splice(Math.max(0, this.unsent.length - HISTORY_BATCH));
    const items: ChatItem[] = [];
    for (const copy of batch) {
      this.unsentKeys.delete(copy.key);
      if (!this.changed.delete(copy.key)) items.push(copy);
      else {
        const now = this.transcript.get(copy.key);
        if (now) items.push(now);
      }
    }
    if (items.length > 0) this.post({ type: "history", items });
    if (this.unsent.length > 0) this.timer = setTimeout(() => this.nextBatch(), BATCH_GAP_MS);
  }

  /** Nothing more of the last conversation to send. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.unsent = [];
    this.unsentKeys.clear();
    this.changed.clear();
  }

  dispose(): void {
    this.stop();
  }
}

import type { ToWebview } from "../../shared/webview-protocol";
import type { ChatItem } from "../../shared/chat-items";
import { entryKeyOf, type Transcript } from "./transcript";

/** Entries a reset carries at once (the webview renders the last 40 and keeps the rest as placeholders). */
export const RESET_TAIL = 200;
/** Older entries per `history` message the webview asks for as the user scrolls up. */
export const HISTORY_BATCH = 250;
/** Older entries per `history` message when the webview asks for all of them (find). */
export const ALL_BATCH = 1000;
const BATCH_GAP_MS = 16;

/**
 * A long conversation goes to the webview in parts, so that its last message shows at once: the
 * reset carries the newest entries and says how many older ones there are; the webview asks for
 * them (`olderHistory`) as the user scrolls near the oldest it has, a batch at a time, newest
 * first, each put before those shown, or for all of them (find searches them). Nothing is pushed
 * unasked: a 20,000-message session is 14 MB of entries, and each batch crossing the workbench
 * and the webview's host frame while the user scrolled cost frames of 50–170 ms (docs/performance.md).
 * The batches carry the reset's own items (never changed in place, see Transcript.snapshot); an
 * entry changed before its batch waits for it, which takes the entry as the transcript holds it
 * then (or leaves it out, gone); a new reset drops what was left.
 */
export class HistoryParts {
  /** The reset's copies of the entries still to send, oldest first. */
  private unsent: ChatItem[] = [];
  private readonly unsentKeys = new Set<string>();
  /** Entries not sent yet that changed since the reset: their batch copies them again. */
  private readonly changed = new Set<string>();
  /** While all the rest goes (find), a batch per task. */
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
      this.post({ ...message, items: message.items.slice(split), older: split });
      return;
    }
    const key = entryKeyOf(message);
    if (key !== undefined && this.unsentKeys.has(key)) {
      this.changed.add(key); // its batch takes it as it is then
      return;
    }
    this.post(message);
  }

  /** The webview asks for the next older entries, or for all that are left (a batch per task). */
  older(all: boolean): void {
    if (this.timer) return; // all of them are on their way
    if (!all) return this.nextBatch(HISTORY_BATCH);
    const rest = () => {
      this.timer = undefined;
      this.nextBatch(ALL_BATCH);
      if (this.unsent.length > 0) this.timer = setTimeout(rest, BATCH_GAP_MS);
    };
    rest();
  }

  private nextBatch(size: number): void {
    if (this.unsent.length === 0) return;
    const batch = this.unsent.splice(Math.max(0, this.unsent.length - size));
    const items: ChatItem[] = [];
    for (const copy of batch) {
      this.unsentKeys.delete(copy.key);
      if (!this.changed.delete(copy.key)) items.push(copy);
      else {
        const now = this.transcript.get(copy.key);
        if (now) items.push(now);
      }
    }
    // Sent even when every entry of it went meanwhile: the webview learns how many are left.
    this.post({ type: "history", items, older: this.unsent.length });
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

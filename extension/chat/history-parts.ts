import type { ToWebview } from "../../shared/webview-protocol";
import type { Transcript } from "./transcript";

/** Entries a reset carries at once (the webview renders the last 40 and keeps the rest as placeholders). */
export const RESET_TAIL = 200;
/** Older entries per `history` message. */
export const HISTORY_BATCH = 1000;
const BATCH_GAP_MS = 16;

const keyOf = (message: ToWebview): string | undefined =>
  message.type === "upsert" ? message.item.key : message.type === "remove" || message.type === "append" || message.type === "output" ? message.key : undefined;

/**
 * A long conversation goes to the webview in parts, so that its last message shows at once: the
 * reset carries the newest entries, and the older ones follow in batches, newest first, each put
 * before those shown (a 20,000-message session is 14 MB of entries, seconds through code-server's
 * connection). A change to an entry not sent yet waits for its batch, which takes the entry as the
 * transcript holds it then; a new reset drops what was left.
 */
export class HistoryParts {
  /** Keys of the entries still to send, oldest first. */
  private unsent: string[] = [];
  private readonly unsentKeys = new Set<string>();
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
      this.unsent = message.items.slice(0, split).map((item) => item.key);
      for (const key of this.unsent) this.unsentKeys.add(key);
      this.post({ ...message, items: message.items.slice(split) });
      this.timer = setTimeout(() => this.nextBatch(), BATCH_GAP_MS);
      return;
    }
    const key = keyOf(message);
    if (key !== undefined && this.unsentKeys.has(key)) return; // its batch takes it as it is then
    this.post(message);
  }

  private nextBatch(): void {
    this.timer = undefined;
    const keys = this.unsent.splice(Math.max(0, this.unsent.length - HISTORY_BATCH));
    const items = [];
    for (const key of keys) {
      this.unsentKeys.delete(key);
      const item = this.transcript.get(key);
      if (item) items.push(structuredClone(item));
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
  }

  dispose(): void {
    this.stop();
  }
}

import type { ToWebview } from "../../shared/webview-protocol";
import { entryKeyOf, type Transcript } from "./transcript";

/**
 * A chat's transcript changes while its webview is off screen (a background tab, a hidden side
 * bar): held as the keys they touched, not posted one by one, so that a hidden chat's stream costs
 * its webview nothing (eight chats streaming at once render only the ones on screen). Back on
 * screen, each touched entry goes once, whole, where it stands; a reset meanwhile, the whole
 * transcript.
 */
export class OffscreenChanges {
  private readonly touched = new Set<string>();
  private wholeAgain = false;

  constructor(
    private readonly transcript: Transcript,
    private readonly onScreen: () => boolean,
  ) {}

  /** True when `message` (a transcript change) is held rather than sent now. */
  hold(message: ToWebview): boolean {
    if (this.onScreen()) return false;
    if (message.type === "reset") {
      this.wholeAgain = true;
      this.touched.clear();
      return true;
    }
    const key = entryKeyOf(message);
    if (key === undefined) return false;
    this.touched.add(key);
    return true;
  }

  /**
   * What brings the webview up to date: the entries gone, then each touched entry in the
   * transcript's order, placed after the one before it (already shown, or sent just before).
   * Nothing is held after.
   */
  flush(): ToWebview[] {
    if (this.wholeAgain) {
      this.forget();
      return [this.transcript.resetMessage()];
    }
    const now = Date.now();
    const messages: ToWebview[] = [];
    for (const key of this.touched) if (!this.transcript.get(key)) messages.push({ type: "remove", key });
    let before: string | undefined;
    for (const key of this.transcript.keys()) {
      const item = this.touched.has(key) ? this.transcript.get(key) : undefined;
      if (item) messages.push({ type: "upsert", item, now, ...(before === undefined ? {} : { after: before }) });
      before = key;
    }
    this.forget();
    return messages;
  }

  /** The webview got everything (its `ready` replays the transcript). */
  forget(): void {
    this.touched.clear();
    this.wholeAgain = false;
  }

  get holding(): boolean {
    return this.wholeAgain || this.touched.size > 0;
  }
}

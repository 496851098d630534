import type { AgentMessage } from "../../shared/protocol";
import type { ChatEvents } from "./chat-events";
import type { Transcript } from "./transcript";

/** A turn for the extension host's other work (everyone's extensions share it). */
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Shows a session's messages (get_messages) in place of the transcript, a slice at a time, so
 * that a long session never holds the extension host for the whole replay (20,000 messages: 130–240
 * ms in one task). `first` runs on the emptied transcript (the safeguards note). A later rebuild
 * ends this one. True when it was shown.
 */
export function replaySession(transcript: Transcript, events: ChatEvents, messages: AgentMessage[], first: () => void): Promise<boolean> {
  return transcript.replaceAllInSlices(async (current) => {
    first();
    await nextTask(); // reading and checking the reply was a task of its own
    if (!current()) return;
    await events.replayInSlices(messages, async () => {
      await nextTask();
      return current();
    });
  });
}

/**
 * Agent events that come while a session is being replayed wait for it, then go in their order:
 * applied meanwhile they would land in a transcript about to be replaced.
 */
export class EventHold {
  private holds = 0;
  private held: (() => void)[] = [];

  /** Runs `apply` now, or after the replays under way. */
  deliver(apply: () => void): void {
    if (this.holds > 0) this.held.push(apply);
    else apply();
  }

  async during<T>(work: () => Promise<T>): Promise<T> {
    this.holds++;
    try {
      return await work();
    } finally {
      if (--this.holds === 0) {
        const held = this.held;
        this.held = [];
        for (const apply of held) apply();
      }
    }
  }
}

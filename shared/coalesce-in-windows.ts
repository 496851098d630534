export interface Joining<T> {
  /** Whether a message may wait to be joined; any other goes at once, after what is held. */
  joinable(message: T): boolean;
  /** `next` joined onto `held` (both joinable), or undefined when the two cannot be one message. */
  join(held: T, next: T): T | undefined;
  /** The window's length now (read at each window; 0 passes everything through as it comes). */
  windowMs(): number;
}

export interface WindowCoalescer<T> {
  post(message: T): void;
  /** Sends what is held now (before a message that bypasses this, such as a full reset). */
  flush(): void;
  /** Sends what is held and ends the window: the next message goes at once, the window after it of the length then (the length changed). */
  endWindow(): void;
  dispose(): void;
}

/**
 * A stream of small messages in fewer, larger ones: at most one joinable message per window while
 * they keep coming. After a quiet window the first one goes out at once (nothing waits that need
 * not); the ones that follow are joined and sent when the window closes, which opens the next one.
 * Any message that cannot be joined first sends what is held, so the order is kept. A window of
 * 0 ms passes everything through as it comes.
 */
export function coalesceInWindows<T>(sink: (message: T) => void, { joinable, join, windowMs }: Joining<T>): WindowCoalescer<T> {
  let held: T | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (held === undefined) return;
    const message = held;
    held = undefined;
    sink(message);
  };
  const closeWindow = () => {
    timer = undefined;
    if (held === undefined) return; // a quiet window: the next message goes at once
    flush();
    timer = setTimeout(closeWindow, windowMs());
  };
  const endWindow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    flush();
  };
  return {
    post(message) {
      if (!joinable(message)) {
        flush();
        return sink(message);
      }
      if (held !== undefined) {
        const joined = join(held, message);
        if (joined !== undefined) {
          held = joined;
          return;
        }
        flush();
      }
      const ms = windowMs();
      if (ms <= 0) return sink(message);
      if (timer) {
        held = message;
        return;
      }
      sink(message);
      timer = setTimeout(closeWindow, ms);
    },
    flush,
    endWindow,
    dispose: endWindow,
  };
}

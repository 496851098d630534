/**
 * Scrolling a long conversation in the chat webview, timed frame by frame: up to its top as a user
 * would, then held there until its first message shows. Run in the webview (locator.evaluate):
 * each function is self-contained.
 */

/** What scrolling a long session to its top costs the webview, and its heap after. */
export interface ScrollFigures {
  /** The longest frame while scrolling up a page per frame (30 pages), jumping to the top and the second after. */
  longestFrame: number;
  /** The median frame of the same. */
  medianFrame: number;
  /**
   * The longest task on the chat's own event loop (chromium's longtask entries, over 50 ms; 0 when
   * none): work of the chat's that holds up its input and frames. A longer frame than this is the
   * workbench's, the compositor's or a busy machine's. Undefined where there are no such entries.
   */
  chatLongestTask?: number;
  /** The webview's JS heap after a garbage collection (MB; needs chromium's --expose-gc and precise memory info). */
  heapMb: number | undefined;
  /**
   * What the longest animation frame spent its time on (chromium's long-animation-frame entries):
   * its duration, the part before rendering (scripts), style and layout, and its longest scripts
   * with who called them and their forced layouts. Undefined where the browser has no such entries.
   */
  longestFrameParts?: string;
  /** The entries in the webview after the scroll, and in how many history parts (batches of older entries) they came. */
  entriesAfter: { entries: number; parts: number };
  /** Each frame over 50 ms: when it began (epoch ms, the webview's clock) and how long it took. */
  longFrames: { start: number; duration: number }[];
}

/** Runs in the webview: scrolls the conversation up as a user would, then to its top, timing every frame. */
export async function scrollToTop(): Promise<ScrollFigures> {
  const scroller = document.getElementById("transcript")!;
  const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
  interface LoafScript { invoker: string; sourceFunctionName: string; duration: number; forcedStyleAndLayoutDuration: number }
  interface Loaf { duration: number; startTime: number; renderStart: number; styleAndLayoutStart: number; scripts: LoafScript[] }
  const loafs: Loaf[] = [];
  const longTasks: { duration: number; name: string }[] = [];
  let observer: PerformanceObserver | undefined;
  let taskObserver: PerformanceObserver | undefined;
  try {
    observer = new PerformanceObserver((list) => loafs.push(...(list.getEntries() as unknown as Loaf[])));
    observer.observe({ type: "long-animation-frame", buffered: false });
    // Tasks over 50 ms on this event loop, whichever frame ran them (the name says: self, an ancestor, …).
    taskObserver = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => ({ duration: e.duration, name: e.name }))));
    taskObserver.observe({ type: "longtask", buffered: false });
  } catch {
    observer = undefined; // no such entries here
  }
  const frames: number[] = [];
  const longFrames: { start: number; duration: number }[] = [];
  let running = true;
  void (async () => {
    let last = await frame();
    while (running) {
      const t = await frame();
      frames.push(t - last);
      if (t - last > 50) longFrames.push({ start: performance.timeOrigin + last, duration: t - last });
      last = t;
    }
  })();
  for (let i = 0; i < 30; i++) {
    scroller.scrollTop -= scroller.clientHeight;
    await frame();
  }
  scroller.scrollTop = 0;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  running = false;
  const w = window as unknown as { gc?: () => void };
  w.gc?.();
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  observer?.disconnect();
  taskObserver?.disconnect();
  const tasks = longTasks.length ? `; long tasks: ${longTasks.length}, longest ${Math.round(Math.max(...longTasks.map((t) => t.duration)))} ms (${[...new Set(longTasks.map((t) => t.name))].join(", ")})` : "; no long task on its event loop";
  const worst = loafs.sort((a, b) => b.duration - a.duration)[0];
  const ms = (n: number) => `${Math.round(n)} ms`;
  const parts = worst
    ? [
        `${ms(worst.duration)}: scripts ${ms((worst.renderStart || worst.startTime + worst.duration) - worst.startTime)}, style and layout ${ms(worst.renderStart && worst.styleAndLayoutStart ? worst.startTime + worst.duration - worst.styleAndLayoutStart : 0)}`,
        ...worst.scripts
          .sort((a, b) => b.duration - a.duration)
          .slice(0, 4)
          .map((script) => `${script.invoker || "?"} ${script.sourceFunctionName || ""} ${ms(script.duration)} (forced layout ${ms(script.forcedStyleAndLayoutDuration)})`),
      ].join("; ") + tasks
    : `no long animation frame in the chat's document${tasks}`;
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    longestFrame: Math.max(0, ...frames),
    medianFrame: sorted[Math.floor(sorted.length / 2)] ?? 0,
    ...(taskObserver ? { chatLongestTask: Math.max(0, ...longTasks.map((t) => t.duration)) } : {}),
    heapMb: memory ? memory.usedJSHeapSize / 2 ** 20 : undefined,
    ...(parts ? { longestFrameParts: parts } : {}),
    entriesAfter: { entries: scroller.querySelectorAll(":scope > [data-key], :scope > .history-part > [data-key]").length, parts: scroller.querySelectorAll(":scope > .history-part").length },
    longFrames,
  };
}

/** What going on to a long session's first message cost (older entries come as the webview asks for them). */
export interface FirstMessageFigures {
  /** From the first jump to the top to the frame showing the first message (ms); undefined when it did not show within 60 s. */
  ms: number | undefined;
  longestFrame: number;
  framesOver50: number;
  frames: number;
  /** History parts (batches of older entries) the webview holds at the end. */
  parts: number;
  /** Each frame over 50 ms: when it began (epoch ms) and how long it took. */
  longFrames: { start: number; duration: number }[];
}

/**
 * Runs in the webview: after scrollToTop, holds the transcript at its top (scrollTop 0 every
 * frame, as a user holding the scroll bar there) until the session's first message shows, timing
 * every frame: each batch of older entries arrives while the user is scrolling.
 */
export async function scrollToFirst(_body: Element, firstText: string): Promise<FirstMessageFigures> {
  const scroller = document.getElementById("transcript")!;
  const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
  const frames: number[] = [];
  const t0 = await frame();
  let last = t0;
  let ms: number | undefined;
  const longFrames: { start: number; duration: number }[] = [];
  while (last - t0 < 60_000) {
    scroller.scrollTop = 0;
    const t = await frame();
    frames.push(t - last);
    if (t - last > 50) longFrames.push({ start: performance.timeOrigin + last, duration: t - last });
    last = t;
    if (scroller.textContent?.includes(firstText)) {
      ms = t - t0;
      break;
    }
  }
  return { ms, longestFrame: Math.max(0, ...frames), framesOver50: frames.filter((f) => f > 50).length, frames: frames.length, parts: scroller.querySelectorAll(":scope > .history-part").length, longFrames };
}

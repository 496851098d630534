/**
 * Long frames and long tasks, as the documents of the editor's page see them: each document notes its
 * own (run in it with evaluate), and a chat frame over 50 ms is told with what overlapped it.
 */

/** A long animation frame or long task seen by one document of the page (epoch ms). */
export interface LongEntry {
  kind: "loaf" | "task";
  start: number;
  duration: number;
  /** Scripts (loaf) or the frame it is attributed to (task). */
  what: string;
}

/** Runs in any document of the page: starts noting its long animation frames and long tasks (for takeLongEntries). */
export function watchLongEntries(): void {
  const w = window as unknown as { __benchLong?: { entries: LongEntry[]; observers: PerformanceObserver[] } };
  w.__benchLong?.observers.forEach((o) => o.disconnect());
  const entries: LongEntry[] = [];
  const epoch = (t: number) => performance.timeOrigin + t;
  interface Script { invoker: string; sourceURL: string; sourceFunctionName: string; duration: number; forcedStyleAndLayoutDuration: number }
  const observers: PerformanceObserver[] = [];
  try {
    const loaf = new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { startTime: number; duration: number; renderStart: number; styleAndLayoutStart: number; blockingDuration: number; scripts: Script[] }[]) {
        const scripts = [...e.scripts].sort((a, b) => b.duration - a.duration).slice(0, 3);
        const file = (url: string) => url.split("/").pop()?.split("?")[0] ?? "";
        const render = e.renderStart ? Math.round(e.startTime + e.duration - e.renderStart) : 0;
        entries.push({
          kind: "loaf",
          start: epoch(e.startTime),
          duration: e.duration,
          what: `render ${render} ms; ` + scripts.map((s) => `${s.invoker || "?"} ${s.sourceFunctionName || ""}@${file(s.sourceURL)} ${Math.round(s.duration)} ms (forced layout ${Math.round(s.forcedStyleAndLayoutDuration)})`).join("; "),
        });
      }
    });
    loaf.observe({ type: "long-animation-frame", buffered: false });
    observers.push(loaf);
  } catch {
    // no such entries here
  }
  try {
    const tasks = new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { startTime: number; duration: number; name: string; attribution: { containerType: string; containerName: string; containerSrc: string }[] }[]) {
        const a = e.attribution[0];
        entries.push({ kind: "task", start: epoch(e.startTime), duration: e.duration, what: `${e.name}${a ? ` ${a.containerType} ${a.containerSrc.split("/").pop()?.split("?")[0] ?? ""}` : ""}` });
      }
    });
    tasks.observe({ type: "longtask", buffered: false });
    observers.push(tasks);
  } catch {
    // no such entries here
  }
  w.__benchLong = { entries, observers };
}

/** Runs in a document where watchLongEntries ran: what it saw, and stops. */
export function takeLongEntries(): LongEntry[] {
  const w = window as unknown as { __benchLong?: { entries: LongEntry[]; observers: PerformanceObserver[] } };
  w.__benchLong?.observers.forEach((o) => o.disconnect());
  const entries = w.__benchLong?.entries ?? [];
  w.__benchLong = undefined;
  return entries;
}

/** The chat's frames over 50 ms, each with what the page's documents saw overlapping it (long frames, long tasks). */
export function attributeLongFrames(frames: { start: number; duration: number }[], seen: Record<string, LongEntry[]>): string[] {
  return frames.map((f) => {
    const end = f.start + f.duration;
    const overlapping = Object.entries(seen).flatMap(([doc, entries]) =>
      entries.filter((e) => e.start < end && e.start + e.duration > f.start).map((e) => `${doc} ${e.kind} ${Math.round(e.duration)} ms at ${Math.round(e.start - f.start)}: ${e.what}`),
    );
    return `frame ${Math.round(f.duration)} ms: ${overlapping.length ? overlapping.join(" | ") : "nothing long in any document"}`;
  });
}

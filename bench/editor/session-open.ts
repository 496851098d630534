/**
 * Opening a 1,000-message session in the editor: a generated pi session file in the agent's
 * session folder for the workspace, picked in "Pi: Resume Session"; the time from pressing Enter
 * on it to the first frame of the chat webview that shows its last message.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import { writeSession } from "../lib/sessions";

/** pi's session folder of a working directory (`<agentDir>/sessions/--<cwd>--/`). */
export function sessionDirOf(agentDir: string, cwd: string): string {
  return path.join(agentDir, "sessions", `--${path.resolve(cwd).replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
}

/** What the webview saw of one open (epoch ms, from the webview's clock). */
export interface MarkerTimes {
  /** The first frame whose text holds the marker (its rAF callback, before that frame paints). */
  shown: number;
  /** The next frame: the one that shows the marker has been laid out and painted. */
  painted: number;
  /** The `reset` message carrying the session's items arrived (before the view handled it). */
  reset: number | undefined;
}

/** Runs in the webview (locator.evaluate on its body): starts watching for the first frame whose text holds `marker`. */
export function watchMarker(_body: Element, marker: string): void {
  const w = window as unknown as { __benchMarker?: Promise<MarkerTimes> };
  const now = () => performance.timeOrigin + performance.now();
  let reset: number | undefined;
  // A capture listener on the window runs before the view's own `message` listener.
  // The chat's messages are JSON-RPC notifications (`params` is the message) since the typed channel.
  const onMessage = (event: MessageEvent<{ params?: { type?: string; items?: unknown[] } }>) => {
    const message = event.data?.params;
    if (message?.type === "reset" && (message.items?.length ?? 0) > 100) reset = now();
  };
  window.addEventListener("message", onMessage, true);
  w.__benchMarker = new Promise((resolve) => {
    let changed = false;
    const observer = new MutationObserver(() => (changed = true));
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    const frame = () => {
      if (changed) {
        changed = false;
        if (document.body.textContent?.includes(marker)) {
          observer.disconnect();
          window.removeEventListener("message", onMessage, true);
          const shown = now();
          requestAnimationFrame(() => resolve({ shown, painted: now(), reset }));
          return;
        }
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

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

/** Runs in the webview: when watchMarker saw its marker. */
export function markerTime(): Promise<MarkerTimes> | undefined {
  return (window as unknown as { __benchMarker?: Promise<MarkerTimes> }).__benchMarker;
}

export interface OpenOptions {
  page: Page;
  chat: FrameLocator;
  /** Agent dirs whose session folder gets the file (both agents', the current one reads its own). */
  agentDirs: string[];
  workspace: string;
  /** Unique per run, so that no earlier transcript can satisfy the wait. */
  tag: string;
  /** Message entries in the session (default 1,000). */
  entries?: number;
  runCommand(title: string): Promise<void>;
  /** Where the agent command notes when switch_session and get_messages reach the agent and their responses leave (stamp-agent.mjs). */
  phasesFile?: string;
}

/**
 * One measured open: `total` from Enter to the first frame showing the last message; `render`
 * from the `reset` message reaching the webview to the frame after it is painted (the view's own cost).
 */
export async function openSession(o: OpenOptions): Promise<{ total: number; render: number | undefined; phases: string | undefined; scroll: ScrollFigures; longFrames: string[]; toFirst: FirstMessageFigures; toFirstLongFrames: string[] }> {
  const first = `bench-open-${o.tag} first message`;
  const marker = `bench-end-${o.tag}`;
  for (const dir of o.agentDirs) {
    const file = path.join(sessionDirOf(dir, o.workspace), `2026-01-01T00-00-00-000Z_bench-${o.tag}.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeSession(file, { entries: o.entries ?? 1000, textChars: 400, cwd: o.workspace, firstText: first, lastText: marker });
  }
  await o.runCommand("Pi: Resume Session");
  const input = o.page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 20_000 });
  await input.fill(`bench-open-${o.tag}`);
  await o.page.locator(".quick-input-widget .monaco-list-row", { hasText: `bench-open-${o.tag}` }).first().waitFor({ state: "visible", timeout: 20_000 });
  const body = o.chat.locator("body");
  await body.evaluate(watchMarker, marker);
  const t0 = performance.timeOrigin + performance.now();
  await o.page.keyboard.press("Enter");
  const t1 = await Promise.race([
    body.evaluate(markerTime),
    new Promise<undefined>((_, reject) => setTimeout(() => reject(new Error("the session's last message never showed")), 60_000)),
  ]);
  if (t1 === undefined) throw new Error("the marker watch was lost (webview reloaded?)");
  // The page's other documents: the workbench and the webview's host frame (which relays its messages).
  const hostFrame = o.chat.owner();
  await Promise.all([o.page.evaluate(watchLongEntries), hostFrame.evaluate(watchLongEntries), body.evaluate(watchLongEntries)]);
  const scroll = await profiled(o.page, `${o.tag}-scroll`, () => body.evaluate(scrollToTop));
  const seen = { workbench: await o.page.evaluate(takeLongEntries), "webview host": await hostFrame.evaluate(takeLongEntries), chat: await body.evaluate(takeLongEntries) };
  const longFrames = attributeLongFrames(scroll.longFrames, seen);
  await Promise.all([o.page.evaluate(watchLongEntries), hostFrame.evaluate(watchLongEntries), body.evaluate(watchLongEntries)]);
  const toFirst = await body.evaluate(scrollToFirst, first);
  const seenToFirst = { workbench: await o.page.evaluate(takeLongEntries), "webview host": await hostFrame.evaluate(takeLongEntries), chat: await body.evaluate(takeLongEntries) };
  const toFirstLongFrames = attributeLongFrames(toFirst.longFrames, seenToFirst);
  return { total: t1.shown - t0, render: t1.reset === undefined ? undefined : t1.painted - t1.reset, phases: o.phasesFile && phasesOf(o.phasesFile, t0, t1), scroll, longFrames, toFirst, toFirstLongFrames };
}

/**
 * Where an open's time went, from Enter (ms after it): each command reaching the agent and its
 * response leaving it, the reset reaching the webview, the marker shown. What lies between is the
 * editor's: the pick closing and the extension's requests (before "in"), the extension host's
 * parsing and replay and code-server's connection (between "out get_messages" and "reset").
 */
function phasesOf(file: string, t0: number, t1: MarkerTimes): string {
  const at = (t: number) => `+${Math.round(t - t0)}`;
  const seen = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { what: string; t: number })
    .filter((p) => p.t >= t0 && p.t <= t1.shown);
  const parts = seen.map((p) => `${p.what} ${at(p.t)}`);
  if (t1.reset !== undefined) parts.push(`reset at the webview ${at(t1.reset)}`);
  parts.push(`shown ${at(t1.shown)}`);
  return parts.join(", ");
}

/**
 * Runs `work` under chromium's CPU profiler when $BENCH_PROFILE_DIR is set, and writes the profile
 * there as `<name>.cpuprofile` (the page's renderer: the workbench and its same-origin webviews);
 * with $BENCH_TRACE_DIR, a chromium trace instead (`<name>.trace.json`: style, layout, paint per frame).
 */
async function profiled<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  const traceDir = process.env.BENCH_TRACE_DIR;
  const browser = page.context().browser();
  if (traceDir && browser) {
    // A chromium trace of the same (style, layout, paint, observers per frame): `<name>.trace.json`.
    fs.mkdirSync(traceDir, { recursive: true });
    await browser.startTracing(page, { path: path.join(traceDir, `${name}.trace.json`), categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8.execute"] });
    try {
      return await work();
    } finally {
      await browser.stopTracing();
    }
  }
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return work();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    const result = await work();
    const { profile } = await cdp.send("Profiler.stop");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    return result;
  } finally {
    await cdp.detach();
  }
}

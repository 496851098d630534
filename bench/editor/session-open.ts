/**
 * Opening a 1,000-message session in the editor: a generated pi session file in the agent's
 * session folder for the workspace, picked in "Pi: Resume Session"; the time from pressing Enter
 * on it to the first frame of the chat webview that shows its last message. Then the scroll through
 * it (scroll-frames.ts), its long frames told with what overlapped them (long-frames.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import { writeSession } from "../lib/sessions";
import { attributeLongFrames, takeLongEntries, watchLongEntries } from "./long-frames";
import { profiled } from "./profiled";
import { scrollToFirst, scrollToTop, type FirstMessageFigures, type ScrollFigures } from "./scroll-frames";

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

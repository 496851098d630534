/**
 * What the editor benchmark runs inside the chat webview (through Playwright), and how it turns
 * the records into figures. The stream's deltas are "x" + index in base 36 + " " (see
 * streamDeltas), so the last token of the assistant's text says which delta is on screen.
 */

export interface ProbeRecords {
  /** [time (ms, performance.timeOrigin-based), index of the last delta shown] at each frame that showed a change. */
  paints: [number, number][];
  /** [time, duration] of every animation frame since install (rAF to rAF). */
  frames: [number, number][];
}

/** Runs in the webview (locator.evaluate on its body): records frames and, for frames after a DOM change, the last delta shown. */
export function installProbe(_body: Element, textSelector: string): void {
  type Probe = ProbeRecords & { stop?: () => void };
  const w = window as unknown as { __benchProbe?: Probe };
  w.__benchProbe?.stop?.();
  const probe: Probe = { paints: [], frames: [] };
  w.__benchProbe = probe;
  const now = () => performance.timeOrigin + performance.now();
  let running = true;
  let last = now();
  let changed = false;
  const frame = () => {
    const t = now();
    probe.frames.push([t, t - last]);
    last = t;
    if (changed) {
      changed = false;
      const nodes = document.querySelectorAll(textSelector);
      const text = nodes[nodes.length - 1]?.textContent ?? "";
      const match = /x([0-9a-z]{3})\s*$/.exec(text);
      if (match) probe.paints.push([t, parseInt(match[1]!, 36)]);
    }
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const observer = new MutationObserver(() => (changed = true));
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  probe.stop = () => {
    running = false;
    observer.disconnect();
  };
}

/** Runs in the webview: the records so far (and clears them). */
export function takeProbe(): ProbeRecords {
  const w = window as unknown as { __benchProbe?: ProbeRecords };
  const probe = w.__benchProbe ?? { paints: [], frames: [] };
  const out = { paints: probe.paints.splice(0), frames: probe.frames.splice(0) };
  return out;
}

/** Runs in the webview: the index of the last delta shown, or -1. */
export function lastShown(_body: Element, textSelector: string): number {
  const nodes = document.querySelectorAll(textSelector);
  const match = /x([0-9a-z]{3})\s*$/.exec(nodes[nodes.length - 1]?.textContent ?? "");
  return match ? parseInt(match[1]!, 36) : -1;
}

export interface StreamFigures {
  /** Delta 0 leaving the agent → first frame showing it (ms). */
  firstPaint: number;
  medianLatency: number;
  p95Latency: number;
  maxLatency: number;
  /** Longest frame between the first delta leaving and the last one shown (ms). */
  longestFrame: number;
  /** First delta leaving → last delta shown (ms). */
  streamMs: number;
}

/**
 * Per delta: the first frame that shows it (or a later one) minus the time it left the agent.
 * `first`: the index of the stream's first delta (streams that run at once start apart).
 */
export function streamFigures(stamps: number[], records: ProbeRecords, first = 0): StreamFigures | undefined {
  const paints = records.paints.map(([t, index]): [number, number] => [t, index - first]);
  if (stamps.length === 0 || paints.length === 0) return undefined;
  const latencies: number[] = [];
  let p = 0;
  for (let i = 0; i < stamps.length; i++) {
    while (p < paints.length && paints[p]![1] < i) p++;
    if (p === paints.length) break;
    latencies.push(paints[p]![0] - stamps[i]!);
  }
  if (latencies.length === 0) return undefined;
  const sorted = [...latencies].sort((a, b) => a - b);
  const start = stamps[0]!;
  const end = paints[paints.length - 1]![0];
  const during = records.frames.filter(([t, d]) => t - d >= start - 1 && t - d <= end);
  return {
    firstPaint: latencies[0]!,
    medianLatency: sorted[sorted.length >> 1]!,
    p95Latency: sorted[Math.floor(sorted.length * 0.95)]!,
    maxLatency: sorted[sorted.length - 1]!,
    longestFrame: Math.max(0, ...during.map(([, d]) => d)),
    streamMs: end - start,
  };
}

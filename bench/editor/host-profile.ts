/**
 * A CPU profile of the extension host (our extension's process, shared with every other
 * extension), taken from outside it: SIGUSR1 opens Node's inspector there, and the Profiler
 * domain is driven over the inspector's WebSocket. Used when $BENCH_HOST_PROFILE_DIR is set: the
 * profile goes there as `<name>.cpuprofile` (Chrome DevTools opens it; `npx tsx
 * bench/editor/profile-summary.ts <file>` prints where the time went).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import WebSocket from "ws";

const INSPECTOR_PORT = 9229;

interface InspectorTarget {
  webSocketDebuggerUrl: string;
}

async function inspectorUrl(timeoutMs: number): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).json()) as InspectorTarget[];
      const url = targets[0]?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`no inspector on port ${INSPECTOR_PORT} after SIGUSR1`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A connection to the inspector: one request at a time is all the profiler needs. */
async function connect(url: string): Promise<{ send(method: string, params?: object): Promise<unknown>; close(): void }> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let next = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  socket.on("message", (data: WebSocket.RawData) => {
    const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
    const reply = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    const pending = reply.id === undefined ? undefined : waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id!);
    if (reply.error) pending.reject(new Error(reply.error.message));
    else pending.resolve(reply.result);
  });
  return {
    send(method, params = {}) {
      const id = ++next;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    close: () => socket.close(),
  };
}

/** The parts of a V8 CPU profile read here (the inspector's Profiler.stop, a `.cpuprofile` file). */
export interface CpuProfile {
  /** µs on the monotonic clock (process.hrtime's, on Linux). */
  startTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Our code's share of a profiled main thread: issue 31 asks for our CPU, measured inside the extension host. */
export interface OursInProfile {
  /** Samples with a function of ours anywhere on the stack: our code and what it called (JSON.parse, postMessage's copy, GC in it). */
  oursMs: number;
  /** Samples not idle: every extension's and VS Code's work on the thread. */
  busyMs: number;
  /** The longest stretch of consecutive samples with ours on the stack. */
  longestOursMs: number;
  /** The longest stretch of consecutive busy samples that holds one of ours: a task of ours, with what ran just before or after it without a pause (an upper bound). */
  longestBusyWithOursMs: number;
  /** With turns watched (hostProfiled): the longest time the event loop did not come round to a 1 ms timer beside ours, whoever held it. */
  longestTurnMs?: number;
  /** With turns watched: the most of ours in one such turn, so the longest task of ours at most (tasks back to back with nothing between are one turn). */
  mostOursInOneTurnMs?: number;
  /**
   * The same counted in samples times the sampling interval: the time the thread ran. A sample's
   * time lasts until the next one, so the time the thread was off the CPU (another process ran:
   * the bench loads both cores) counts in the figure above, not in this one.
   */
  mostOursInOneTurnRunningMs?: number;
}

/** The profiler's sampling interval (hostProfiled sets it). */
export const SAMPLING_INTERVAL_US = 250;

/** Stretches [from, to] (µs, the profile's clock) in which a 1 ms timer in the extension host did not fire. */
export type LateTurns = [number, number][];

/** Runs in the extension host (Runtime.evaluate): a 1 ms timer noting every turn of the event loop that came over 5 ms late. */
const WATCH_TURNS = `(() => {
  const watch = { late: [], stop: false };
  let last = process.hrtime.bigint();
  const tick = () => {
    const now = process.hrtime.bigint();
    if (now - last > 5000000n) watch.late.push([Number(last / 1000n), Number(now / 1000n)]);
    last = now;
    if (!watch.stop) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  globalThis.__piBenchTurns = watch;
})()`;
const TAKE_TURNS = `(() => { const watch = globalThis.__piBenchTurns; watch.stop = true; delete globalThis.__piBenchTurns; return JSON.stringify(watch.late); })()`;

/** Adds to `figures` the longest late turn and the most of ours in one (our samples' times inside each). */
export function oursInTurns(profile: CpuProfile, late: LateTurns, ours: (url: string) => boolean, figures: OursInProfile): OursInProfile {
  const isOurs = oursOfSamples(profile, ours);
  const inTurn = late.map(() => 0);
  const samplesInTurn = late.map(() => 0);
  let at = profile.startTime;
  let turn = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    while (turn < late.length && late[turn]![1] < at) turn++;
    if (turn === late.length) break;
    if (at > late[turn]![0] && isOurs(profile.samples[i]!)) {
      inTurn[turn]! += (profile.timeDeltas[i + 1] ?? 0) / 1000;
      samplesInTurn[turn]!++;
    }
  }
  return {
    ...figures,
    longestTurnMs: Math.max(0, ...late.map(([from, to]) => (to - from) / 1000 - 1)),
    mostOursInOneTurnMs: Math.max(0, ...inTurn),
    mostOursInOneTurnRunningMs: (Math.max(0, ...samplesInTurn) * SAMPLING_INTERVAL_US) / 1000,
  };
}

/** Whether a sample (by its node) has a function of ours on its stack. */
function oursOfSamples(profile: CpuProfile, ours: (url: string) => boolean): (id: number) => boolean {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const known = new Map<number, boolean>();
  return (id) => {
    let found = known.get(id);
    if (found !== undefined) return found;
    found = false;
    for (let at: number | undefined = id; !found && at !== undefined; at = parent.get(at)) found = ours(byId.get(at)?.callFrame.url ?? "");
    known.set(id, found);
    return found;
  };
}

/** Sums a profile's samples by whether `ours(url)` holds for a function on their stack. A sample lasts until the next one. */
export function oursInProfile(profile: CpuProfile, ours: (url: string) => boolean): OursInProfile {
  const isOurs = oursOfSamples(profile, ours);
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const kindOf = (id: number): "idle" | "ours" | "other" => (idle.has(id) ? "idle" : isOurs(id) ? "ours" : "other");
  const figures: OursInProfile = { oursMs: 0, busyMs: 0, longestOursMs: 0, longestBusyWithOursMs: 0 };
  let oursRun = 0;
  let busyRun = 0;
  let busyRunHasOurs = false;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const k = kindOf(profile.samples[i]!);
    if (k === "idle") {
      oursRun = 0;
      busyRun = 0;
      busyRunHasOurs = false;
      continue;
    }
    figures.busyMs += ms;
    busyRun += ms;
    if (k === "ours") {
      figures.oursMs += ms;
      oursRun += ms;
      busyRunHasOurs = true;
    } else oursRun = 0;
    figures.longestOursMs = Math.max(figures.longestOursMs, oursRun);
    if (busyRunHasOurs) figures.longestBusyWithOursMs = Math.max(figures.longestBusyWithOursMs, busyRun);
  }
  return figures;
}

/** Profiles `pid` (a Node process) while `work` runs, when $BENCH_HOST_PROFILE_DIR is set; the profile and its late turns too. */
export async function hostProfiled<T>(pid: number, name: string, work: () => Promise<T>): Promise<{ result: T; profile?: CpuProfile; late?: LateTurns }> {
  const dir = process.env.BENCH_HOST_PROFILE_DIR;
  if (!dir) return { result: await work() };
  process.kill(pid, "SIGUSR1");
  const inspector = await connect(await inspectorUrl(10_000));
  try {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
    await inspector.send("Profiler.start");
    await inspector.send("Runtime.evaluate", { expression: WATCH_TURNS });
    const result = await work();
    const taken = (await inspector.send("Runtime.evaluate", { expression: TAKE_TURNS, returnByValue: true })) as { result: { value: string } };
    const { profile } = (await inspector.send("Profiler.stop")) as { profile: CpuProfile };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    const late = JSON.parse(taken.result.value) as LateTurns;
    fs.writeFileSync(path.join(dir, `${name}.late-turns.json`), JSON.stringify(late));
    return { result, profile, late };
  } finally {
    inspector.close();
  }
}

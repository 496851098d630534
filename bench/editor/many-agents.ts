// Eight agents streaming at once (issue 31): the side chat and seven editor tabs ("Pi: New
// Session in Editor Tab"), each with the bundled host the extension launches itself, in a process
// of its own or, shared (pi.agent.shareProcess), the first (the side chat) alone and the seven tabs
// as workers of one pool. First the side chat
// streams alone (the one-session memory). Then each tab sends its prompt; the scripted server holds
// the requests until all eight have come, then streams 4,000 deltas to each, at once, every stream
// starting at its own index. Measured: in the two chats on screen (the side chat and the last
// tab), each delta from the scripted server's write carrying it to the frame showing it (so the
// agent's own work counts), and the longest frame; the extension host's CPU per 1,000 deltas over
// the eight streams; the agents' memory beside a bare Node process's, and the extension host's
// growth per extra session.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { FrameLocator, Page } from "playwright-core";
import type { BenchLlm } from "../lib/llm";
import { streamDeltas } from "../lib/llm";
import { hostProfiled, oursInProfile, oursInTurns, type OursInProfile } from "./host-profile";
import { profiled } from "./profiled";
import { cpuMs, cpuSnapshot, cpuSpent, descendants, rssMb } from "./processes";
import { installProbe, lastShown, streamFigures, takeProbe, type StreamFigures } from "./probe";
import { attributeLongFrames, takeLongEntries, watchLongEntries } from "./long-frames";

export const AGENTS = 8;

export interface ManyAgentsFigures {
  /** The two chats on screen: the worse of the two for each figure. */
  shown: StreamFigures;
  cpuPer1000Deltas: number;
  /** With $BENCH_HOST_PROFILE_DIR: our code's share of the extension host's main thread over the streams (the profiler's own cost in it), its CPU per 1,000 deltas too. */
  ours?: OursInProfile & { per1000Deltas: number };
  /**
   * The agents' memory per extra session (MB). Own processes: the median RSS of the eight agent
   * processes after their streams. Shared process: (its RSS after the eight streams − its RSS with
   * the side chat's session alone, after its stream) / 7.
   */
  agentPerSessionMb: number;
  /** The agents' RSS with the side chat's session alone after its stream (MB): its process, or the shared process. */
  oneSessionRssMb: number;
  /** The agents' RSS after the eight streams, all processes together (MB). */
  allSessionsRssMb: number;
  bareNodeRssMb: number;
  /** The extension host's RSS growth per extra session (MB): seven tabs opened, streamed, and measured after. */
  extensionHostPerSessionMb: number;
  /** Processes running the agent host during the eight streams (8 own processes, or 1 shared). */
  agentProcesses: number;
  /** From the eighth prompt to the eight messages ended: its wall time, and the CPU time each group of processes spent in it (ms; 2 cores give 2 x the wall time). */
  windowMs: number;
  cpuMs: Partial<Record<CpuGroup, number>>;
  /** Each frame over 50 ms in a chat on screen during the streams, with what the workbench and the two chats saw overlapping it (long animation frames, long tasks). */
  longFrames: string[];
}

export type CpuGroup = "agents" | "extensionHost" | "renderers" | "chromium" | "codeServer" | "bench";

/** Where the CPU goes, by process (all of them descend from this one: code-server, its extension host and agents, chromium). */
function processGroup(pid: number, cmdline: string): CpuGroup {
  if (pid === process.pid) return "bench";
  if (/agent-host\.js/.test(cmdline)) return "agents";
  if (cmdline.includes("extensionHost")) return "extensionHost";
  if (/chrom/i.test(cmdline)) return cmdline.includes("--type=renderer") ? "renderers" : "chromium";
  return "codeServer";
}

interface Options {
  page: Page;
  sideChat: FrameLocator;
  llm: BenchLlm;
  extensionHost: number;
  /** Whether the agents share one process (pi.agent.shareProcess), checked against the processes found. */
  shared: boolean;
  /** The agent dir, whose session files say when each agent has ended its message. */
  agentDir: string;
  deltas: number;
  /** Each stream's deltas per second (as fast as the server writes when absent). */
  deltasPerSecond?: number;
  /** Deltas per paragraph of each reply (streamDeltas); one paragraph when absent. */
  paragraph?: number;
  /** Each reply one fenced code block, a line every `paragraph` deltas (streamDeltas). */
  code?: boolean;
  bareNodeRssMb: number;
  command(title: string): Promise<void>;
  until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
}

/** Runs in the page: the `name` of the visible webview in the editor area (the active tab's). */
function editorWebviewName(): string | null {
  const editor = document.querySelector(".part.editor")?.getBoundingClientRect();
  if (!editor) return null;
  for (const frame of Array.from(document.querySelectorAll<HTMLIFrameElement>("iframe.webview"))) {
    const r = frame.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.left >= editor.left - 1 && r.top >= editor.top - 1 && frame.checkVisibility({ visibilityProperty: true })) return frame.name;
  }
  return null;
}

const TEXT = ".item-assistant .text";

/**
 * The bundled host's processes under the extension host: a shared one runs `agent-host.js --pool`.
 * Shared, the first session keeps a process of its own (the side chat's) and the ones started
 * while it runs share one pool.
 */
export function agentProcesses(extensionHost: number, shared: boolean): number[] {
  const hosts = descendants(extensionHost).filter((p) => / \S*agent-host\.js /.test(`${p.cmdline} `));
  const pools = hosts.filter((p) => p.cmdline.includes(" --pool"));
  if (shared ? pools.length > 1 || hosts.length - pools.length > 1 : pools.length > 0) {
    throw new Error(`expected ${shared ? "one shared agent process" : "agents in processes of their own"}, found: ${hosts.map((p) => p.cmdline).join("; ") || "none"}`);
  }
  return hosts.map((p) => p.pid);
}

/** Each session file under the agent dir and its length (bytes). */
function sessionFiles(agentDir: string): Map<string, number> {
  const root = path.join(agentDir, "sessions");
  if (!fs.existsSync(root)) return new Map();
  const files = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".jsonl"));
  return new Map(files.map((e) => path.join(e.parentPath, e.name)).map((file) => [file, fs.statSync(file).size]));
}

/** What the session files got since `before` was taken (whole for a new file). */
function sessionTextsSince(agentDir: string, before: Map<string, number>): string[] {
  return [...sessionFiles(agentDir).keys()].map((file) => fs.readFileSync(file).subarray(before.get(file) ?? 0).toString("utf8"));
}

function ready(o: Options, chat: FrameLocator): Promise<unknown> {
  return o.until("the agent to be ready", async () => ((await chat.locator("#status").textContent()) === "Ready" ? true : undefined));
}

async function send(chat: FrameLocator, text: string): Promise<void> {
  await chat.locator("vscode-textarea#prompt textarea").fill(text);
  await chat.locator("vscode-button#send").click();
}

/** What was there before the eight streams: the server's streams so far and the session files' lengths. */
interface Before {
  streams: number;
  files: Map<string, number>;
}

/**
 * The eighth prompt sent (it releases the eight held streams) until each agent has ended its
 * message (its session file holds the stream's last delta) and the chats on screen are ready.
 */
async function eightStreams(o: Options, before: Before, onScreen: FrameLocator[]) {
  await send(o.sideChat, "stream 0");
  const streams = await o.until("the eight streams written", async () => (o.llm.streams.length - before.streams >= AGENTS ? o.llm.streams.slice(before.streams) : undefined), 300_000);
  const lastTokens = streams.map((s) => `x${(s.first + o.deltas - 1).toString(36).padStart(3, "0")} `);
  await o.until(
    "the eight agents' messages in their session files",
    async () => {
      const texts = sessionTextsSince(o.agentDir, before.files);
      return lastTokens.every((token) => texts.some((t) => t.includes(token))) ? true : undefined;
    },
    300_000,
  );
  for (const chat of onScreen) await ready(o, chat);
  return streams;
}

export async function manyAgents(o: Options): Promise<ManyAgentsFigures> {
  const sideBody = o.sideChat.locator("body");
  await ready(o, o.sideChat);
  // The side chat streams alone first (its stream after the eight's indexes): the one-session memory.
  const soloFirst = AGENTS * o.deltas;
  const pace = o.deltasPerSecond ? { deltasPerSecond: o.deltasPerSecond } : {};
  o.llm.script([{ text: streamDeltas(o.deltas, soloFirst, o.paragraph, o.code), ...pace }]);
  await send(o.sideChat, "stream alone");
  await o.until("the side chat's own stream on screen", async () => ((await sideBody.evaluate(lastShown, TEXT)) === soloFirst + o.deltas - 1 ? true : undefined), 120_000);
  await ready(o, o.sideChat);
  const oneSessionRssMb = agentProcesses(o.extensionHost, o.shared).reduce((sum, pid) => sum + rssMb(pid), 0);
  const rssBefore = rssMb(o.extensionHost);
  const files = sessionFiles(o.agentDir);
  o.llm.script(Array.from({ length: AGENTS }, (_, i) => ({ text: streamDeltas(o.deltas, i * o.deltas, o.paragraph, o.code), ...pace })));
  o.llm.hold(AGENTS);
  const before: Before = { streams: o.llm.streams.length, files };
  let tab: FrameLocator | undefined;
  // Seven tabs, each sending its prompt (held by the server) before the next opens.
  for (let i = 1; i < AGENTS; i++) {
    const known = await o.page.evaluate(editorWebviewName);
    await o.command("Pi: New Session in Editor Tab");
    const name = await o.until("the new tab's chat", async () => {
      const now = await o.page.evaluate(editorWebviewName);
      return now && now !== known ? now : undefined;
    });
    tab = o.page.frameLocator(`iframe.webview[name="${name}"]`).frameLocator("#active-frame");
    await ready(o, tab);
    await send(tab, `stream ${i}`);
  }
  // The two chats on screen watched, then the eighth prompt releases all eight streams.
  const onScreen = [o.sideChat, tab!];
  for (const chat of onScreen) await chat.locator("body").evaluate(installProbe, TEXT);
  await Promise.all([o.page.evaluate(watchLongEntries), ...onScreen.map((chat) => chat.locator("body").evaluate(watchLongEntries))]);
  const cpu0 = cpuMs(o.extensionHost);
  const all0 = cpuSnapshot([process.pid]);
  const t0 = performance.now();
  // $BENCH_HOST_PROFILE_DIR: the extension host's profile; $BENCH_PROFILE_DIR: the workbench's renderer (its webviews too).
  const name = `many-${o.shared ? "pool" : "process"}`;
  const { result: streams, profile, late } = await hostProfiled(o.extensionHost, name, () => profiled(o.page, name, () => eightStreams(o, before, onScreen)));
  // Our scripts: the extension's bundle and the files it loads apart (dist/*.js of this checkout).
  const ourDist = `${pathToFileURL(path.resolve(__dirname, "../../dist")).href}/`;
  const isOurs = (url: string) => url.startsWith(ourDist);
  const ours = profile && oursInTurns(profile, late ?? [], isOurs, oursInProfile(profile, isOurs));
  const agentPids = agentProcesses(o.extensionHost, o.shared);
  const cpu = cpuMs(o.extensionHost) - cpu0;
  const spent = cpuSpent(all0, cpuSnapshot([process.pid]), processGroup);
  const windowMs = performance.now() - t0;
  const figures: StreamFigures[] = [];
  const longFrames: { chat: number; start: number; duration: number }[] = [];
  for (const [n, chat] of onScreen.entries()) {
    const body = chat.locator("body");
    const last = await o.until("the chat's last delta on screen", async () => {
      const index = await body.evaluate(lastShown, TEXT);
      return index >= 0 && index < soloFirst && (index + 1) % o.deltas === 0 ? index : undefined;
    });
    const first = last + 1 - o.deltas;
    const run = streams.find((r) => r.first === first);
    const records = await body.evaluate(takeProbe);
    const shown = run && streamFigures(run.stamps, records, first);
    if (!shown) throw new Error(`no figures for the chat whose stream starts at ${first}`);
    figures.push(shown);
    const from = run.stamps[0]!;
    for (const [t, d] of records.frames) if (d > 50 && t - d >= from - 1) longFrames.push({ chat: n, start: t - d, duration: d });
  }
  const seen = { workbench: await o.page.evaluate(takeLongEntries), "side chat": await onScreen[0]!.locator("body").evaluate(takeLongEntries), tab: await onScreen[1]!.locator("body").evaluate(takeLongEntries) };
  const attributed = attributeLongFrames(longFrames, seen).map((line, i) => `${longFrames[i]!.chat === 0 ? "side chat" : "tab"} ${line}`);
  const agentRss = agentPids.map((pid) => rssMb(pid)).sort((a, b) => a - b);
  const allSessionsRssMb = agentRss.reduce((sum, mb) => sum + mb, 0);
  const worse = (key: keyof StreamFigures) => Math.max(...figures.map((f) => f[key]));
  return {
    shown: { firstPaint: worse("firstPaint"), medianLatency: worse("medianLatency"), p95Latency: worse("p95Latency"), maxLatency: worse("maxLatency"), longestFrame: worse("longestFrame"), streamMs: worse("streamMs") },
    cpuPer1000Deltas: cpu / ((AGENTS * o.deltas) / 1000),
    ...(ours ? { ours: { ...ours, per1000Deltas: ours.oursMs / ((AGENTS * o.deltas) / 1000) } } : {}),
    agentPerSessionMb: o.shared ? (allSessionsRssMb - oneSessionRssMb) / (AGENTS - 1) : (agentRss[agentRss.length >> 1] ?? Number.NaN),
    oneSessionRssMb,
    allSessionsRssMb,
    bareNodeRssMb: o.bareNodeRssMb,
    extensionHostPerSessionMb: (rssMb(o.extensionHost) - rssBefore) / (AGENTS - 1),
    agentProcesses: agentPids.length,
    windowMs,
    cpuMs: spent,
    longFrames: attributed,
  };
}

/** Closes the seven tabs (their sessions stop). */
export async function closeTabs(command: (title: string) => Promise<void>): Promise<void> {
  await command("View: Close All Editors");
}

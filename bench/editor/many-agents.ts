// Eight agents streaming at once (issue 31): the side chat and seven editor tabs ("Pi: New
// Session in Editor Tab"), each with our host behind stamp-agent.mjs. Each chat sends its prompt;
// the scripted server holds the requests until all eight have come, then streams 4,000 deltas to
// each, at once, every stream starting at its own index. Measured: in the two chats on screen
// (the side chat and the last tab), each delta from leaving its agent to the frame showing it
// and the longest frame; the extension host's CPU per 1,000 deltas over the eight streams; the
// memory of each agent process beside a bare Node process's, and the extension host's growth
// per extra session.
import * as fs from "node:fs";
import type { FrameLocator, Page } from "playwright-core";
import type { BenchLlm } from "../lib/llm";
import { streamDeltas } from "../lib/llm";
import { cpuMs, descendants, rssMb } from "./processes";
import { installProbe, lastShown, streamFigures, takeProbe, type StreamFigures } from "./probe";

export const AGENTS = 8;

export interface ManyAgentsFigures {
  /** The two chats on screen: the worse of the two for each figure. */
  shown: StreamFigures;
  cpuPer1000Deltas: number;
  /** Median RSS of the agent processes (MB), and of a bare Node process of the same binary. */
  agentRssMb: number;
  bareNodeRssMb: number;
  /** The extension host's RSS growth per extra session (MB): seven tabs opened, streamed, and measured after. */
  extensionHostPerSessionMb: number;
}

interface Options {
  page: Page;
  sideChat: FrameLocator;
  llm: BenchLlm;
  extensionHost: number;
  runsFile: string;
  deltas: number;
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

export async function manyAgents(o: Options): Promise<ManyAgentsFigures> {
  const ready = (chat: FrameLocator) => o.until("the agent to be ready", async () => ((await chat.locator("#status").textContent()) === "Ready" ? true : undefined));
  const send = async (chat: FrameLocator, text: string) => {
    await chat.locator("vscode-textarea#prompt textarea").fill(text);
    await chat.locator("vscode-button#send").click();
  };
  await ready(o.sideChat);
  const rssBefore = rssMb(o.extensionHost);
  o.llm.script(Array.from({ length: AGENTS }, (_, i) => ({ text: streamDeltas(o.deltas, i * o.deltas) })));
  o.llm.hold(AGENTS);
  const runsBefore = fs.readFileSync(o.runsFile, "utf8").split("\n").filter(Boolean).length;
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
    await ready(tab);
    await send(tab, `stream ${i}`);
  }
  // The two chats on screen watched, then the eighth prompt releases all eight streams.
  const onScreen = [o.sideChat, tab!];
  for (const chat of onScreen) await chat.locator("body").evaluate(installProbe, TEXT);
  const cpu0 = cpuMs(o.extensionHost);
  await send(o.sideChat, "stream 0");
  const runs = await o.until(
    "the eight runs' stamps",
    async () => {
      const lines = fs.readFileSync(o.runsFile, "utf8").split("\n").filter(Boolean).slice(runsBefore);
      return lines.length >= AGENTS ? lines.map((l) => JSON.parse(l) as { first: number; stamps: number[] }) : undefined;
    },
    300_000,
  );
  const cpu = cpuMs(o.extensionHost) - cpu0;
  const figures: StreamFigures[] = [];
  for (const chat of onScreen) {
    const body = chat.locator("body");
    const last = await o.until("the chat's last delta on screen", async () => {
      const index = await body.evaluate(lastShown, TEXT);
      return index >= 0 && (index + 1) % o.deltas === 0 ? index : undefined;
    });
    const first = last + 1 - o.deltas;
    const run = runs.find((r) => r.first === first);
    const shown = run && streamFigures(run.stamps, await body.evaluate(takeProbe), first);
    if (!shown) throw new Error(`no figures for the chat whose stream starts at ${first}`);
    figures.push(shown);
  }
  const agents = descendants(o.extensionHost).filter((p) => p.cmdline.includes("agent-host.js"));
  const agentRss = agents.map((p) => rssMb(p.pid)).sort((a, b) => a - b);
  const worse = (key: keyof StreamFigures) => Math.max(...figures.map((f) => f[key]));
  return {
    shown: { firstPaint: worse("firstPaint"), medianLatency: worse("medianLatency"), p95Latency: worse("p95Latency"), maxLatency: worse("maxLatency"), longestFrame: worse("longestFrame"), streamMs: worse("streamMs") },
    cpuPer1000Deltas: cpu / ((AGENTS * o.deltas) / 1000),
    agentRssMb: agentRss[agentRss.length >> 1] ?? Number.NaN,
    bareNodeRssMb: o.bareNodeRssMb,
    extensionHostPerSessionMb: (rssMb(o.extensionHost) - rssBefore) / (AGENTS - 1),
  };
}

/** Closes the seven tabs (their sessions stop). */
export async function closeTabs(command: (title: string) => Promise<void>): Promise<void> {
  await command("View: Close All Editors");
}

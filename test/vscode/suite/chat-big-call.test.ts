// A 1 MB tool call does not freeze VS Code (issue 31): while the model streams a `write` of 1 MB
// in 20-character deltas, a command typed into the palette completes, a 50 ms timer in the
// extension host (which every extension shares) is never late by over 100 ms, and the card shows
// the call's progress.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { constants, performance, PerformanceObserver } from "node:perf_hooks";
import * as vscode from "vscode";
import { useBundledHost } from "./host-fixture";
import { chatText, settled, typePrompt, useChatSuiteWith } from "./chat-support";
import { printFigures } from "./figures";
import { ui } from "./ui";

/**
 * A timer beside ours in the extension host: how late each tick fired. A tick can be late because
 * the extension host was busy (what this test is about) or because the machine's other processes
 * held both CPUs (the shared test machine runs at a load of 5-10): `busy` counts a tick's lateness
 * only up to the CPU time the extension host used since the last tick (process.cpuUsage).
 */
function startTick(periodMs: number) {
  const start = performance.now();
  // Garbage collection in the extension host, by when it ended: a late tick says how much of it was GC.
  const collections: { end: number; ms: number; major: boolean }[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push({ end: entry.startTime + entry.duration, ms: entry.duration, major: (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR });
  });
  gcObserver.observe({ entryTypes: ["gc"] });
  let last = start;
  let lastCpu = process.cpuUsage();
  let worst = 0;
  let worstBusy = 0;
  let count = 0;
  const late: string[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    const lateMs = now - last - periodMs;
    worst = Math.max(worst, lateMs);
    worstBusy = Math.max(worstBusy, Math.min(lateMs, cpuMs));
    if (lateMs > 50) {
      const during = collections.filter((gc) => gc.end > last && gc.end <= now);
      const gcMs = during.reduce((sum, gc) => sum + gc.ms, 0);
      const heapMb = process.memoryUsage().heapUsed / 1048576;
      late.push(`${lateMs.toFixed(0)} ms at +${(now - start).toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms, GC ${gcMs.toFixed(0)} ms${during.some((gc) => gc.major) ? " major" : ""}, heap ${heapMb.toFixed(0)} MB)`);
    }
    last = now;
    lastCpu = cpu;
    count++;
  }, periodMs);
  return {
    worstLateMs: () => worst,
    worstBusyLateMs: () => worstBusy,
    ticks: () => count,
    lateTicks: () => late.join(", ") || "none",
    stop: () => {
      clearInterval(timer);
      gcObserver.disconnect();
    },
  };
}

/** ~1 MB of source-like text with quotes, backslashes and non-ASCII, which JSON escapes. */
function megabyteOfText(): string {
  const line = 'const s = "quoted \\\\ path\\tand tab", café = `${s}`; // ünïcödé\n';
  return line.repeat(Math.ceil((1024 * 1024) / Buffer.byteLength(line)));
}

describe("Pi chat: a 1 MB tool call leaves the editor answering", function () {
  this.timeout(240_000);
  // The write is not asked about: a question would end the stream's measure at the call's end.
  const fixture = useChatSuiteWith(async () => {
    await vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", [], vscode.ConfigurationTarget.Global);
    return useBundledHost();
  });
  after(async () => vscode.workspace.getConfiguration("pi").update("permissions.confirmTools", undefined, vscode.ConfigurationTarget.Global));

  it("runs a palette command and keeps an extension-host timer on time while a 1 MB write streams", async () => {
    const agent = fixture();
    const content = megabyteOfText();
    const args = JSON.stringify({ path: "streamed-1mb.txt", content });
    // 20-character deltas (~55,000), sent 100 at a time every 20 ms: several seconds of streaming.
    agent.llm.enqueue(
      { toolCalls: [{ name: "write", arguments: args, argumentChunks: Math.ceil(args.length / 20) }], delayMs: 20, chunksPerDelay: 100 },
      { text: "Written." },
    );
    const requestsBefore = agent.llm.requests.length;
    await typePrompt("Write the big file");
    await agent.llm.waitForRequests(requestsBefore + 1);
    const streaming = agent.llm.requests[requestsBefore]!;
    const tick = startTick(50);
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      const card = ".item-tool[data-tool='write']";
      const progress = await chatText("the streaming card's progress", `${card} .tool-progress`, (t) => /^receiving [\d.]+ (KB|MB)$/.test(t));
      await chatText("its file while it streams", `${card}:has(.tool-progress) .file-link`, (t) => t.includes("streamed-1mb.txt"));

      // A user runs one of our commands from the palette: F1, its title, Enter.
      const typed = performance.now();
      await ui.pressKey("F1");
      await ui.waitForSelector(".quick-input-widget .quick-input-box input");
      await ui.typeText("Pi: Collapse All Tool Cards");
      await ui.pressKey("Enter");
      await chatText("the command's effect in the chat", "#tool-cards[aria-label='Expand all tool cards']", () => true);
      const commandMs = performance.now() - typed;
      assert.equal(streaming.done, false, "the palette command completed while the model was still streaming");

      await chatText("the progress grows", `${card} .tool-progress`, (t) => t !== progress);
      // The card is collapsed now: its header names the file.
      await chatText("the call done", `${card}[data-status='done']:not(:has(.tool-progress))`, (t) => t.includes("streamed-1mb.txt"), 120_000);
      const doneMs = performance.now() - started;
      tick.stop();
      const used = process.cpuUsage(cpu);
      const cpuPer100KB = (used.user + used.system) / 1000 / (Buffer.byteLength(args) / 102_400);
      printFigures(
        `1 MB write (${Math.ceil(args.length / 20)} deltas): the extension host's 50 ms tick at worst ${tick.worstLateMs().toFixed(0)} ms late, ` +
          `${tick.worstBusyLateMs().toFixed(0)} ms of it with the extension host on the CPU, ` +
          `over ${tick.ticks()} ticks (late over 50 ms: ${tick.lateTicks()}); palette command F1 → done in ${commandMs.toFixed(0)} ms; ` +
          `first request → card done ${doneMs.toFixed(0)} ms; extension host CPU ${cpuPer100KB.toFixed(0)} ms per 100 KB (the scripted model's server runs there too)`,
      );
      assert.ok(tick.worstBusyLateMs() <= 100, `the extension host's tick was ${tick.worstBusyLateMs().toFixed(0)} ms late while it was busy (goal ≤ 100 ms): ${tick.lateTicks()}`);
      // The run ends (a compaction follows: 1 MB of arguments is more than the mock model's window).
      await settled(agent);
      const written = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, "streamed-1mb.txt");
      assert.equal(fs.readFileSync(written, "utf8"), content);
      fs.rmSync(written, { force: true });
    } finally {
      tick.stop();
      await vscode.commands.executeCommand("pi.expandToolCards");
    }
  });
});

/**
 * `npm run bench:editor`: the 4,000-delta stream through our extension in a real VS Code
 * (code-server + headless chromium, the harness of test/vscode), with our agent host and with
 * pi 0.87.1 behind it, alternating. The agent runs behind bench/editor/stamp-agent.mjs, which
 * notes when each delta leaves the agent; a probe in the chat webview notes the frames that show
 * them. Prints the figures and writes bench/RESULTS-editor.md. Nothing asserts a timing.
 *
 *   npm run bench:editor                 5 runs per agent
 *   npm run bench:editor -- --runs 5
 *   npm run bench:editor -- --only open --entries 1000,5000   only the session opens, at these sizes (default 1000,5000,20000)
 *   npm run bench:editor -- --only stream                     only the stream (prints its figures, no report)
 *   npm run bench:editor -- --only bigcall                    only the 1 MB write (our host; prints its figures, no report)
 *   npm run bench:editor -- --only many                       only eight agents at once (our host launched by the extension, pi.agent.shareProcess
 *                                                             off and on, alternating; --pool or --no-pool for one of them; --rate N: each stream
 *                                                             N deltas per second as a model streams, not as fast as the server writes; --paragraph N: a blank
 *                                                             line after every N-th delta, as prose has, not one 20 KB paragraph; --code N: each reply one
 *                                                             code block still open, a line every N deltas; prints its figures, no report)
 *
 * The eight agents run in a code-server of their own, started after the other scenarios' one has
 * stopped (bench/editor/many-run.ts): the extension launches its bundled host itself there.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openWorkbench, waitForWorkbench, type Workbench } from "../../test/vscode/harness/browser";
import { developmentOptions, ensureCodeServer, startCodeServer, workbenchUrl, type CodeServer } from "../../test/vscode/harness/code-server";
import { defaultVersion, repoRoot, sampleWorkspace } from "../../test/vscode/harness/paths";
import { webviewFrame } from "../../test/vscode/harness/webviews";
import { peerLaunch } from "../../test/support/peers";
import { NODE22 } from "../lib/agent";
import { startBenchLlm, streamDeltas } from "../lib/llm";
import { Metric, rotate } from "../lib/stats";
import { installProbe, lastShown, streamFigures, takeProbe, type StreamFigures } from "./probe";
import { activationTime, runCommand } from "./commands";
import { writeEditorReport } from "./report";
import { openSession } from "./session-open";
import { ensurePrerequisites } from "./prerequisites";
import { bigCall } from "./big-call";
import { manyMetrics, runManyAgents, SHARE_MODES, type ShareMode } from "./many-run";
import { extensionHostPid } from "./processes";
import { hostMemoryLaunch } from "../../extension/supervision/host-memory";

const DELTAS = 4000;
const TEXT = ".item-assistant .text";
const CHAT = "Chat";
type Subject = "host" | "pi";

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The extension's own figure (its log's "Activated in N ms (loading L ms, activate A ms; code cache taken)": its bundle loaded, plus activate()). */
function activationFromLog(dir: string): { ms: number; parts?: string } | undefined {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith("Pi Agent.log")) continue;
    const match = /Activated in ([\d.]+) ms(?: \(([^)\n]*)\))?/.exec(fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"));
    if (match) return { ms: Number(match[1]), ...(match[2] ? { parts: match[2] } : {}) };
  }
  return undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const runs = Number(option(argv, "--runs") ?? 5);
  const only = option(argv, "--only");
  const sizes = (option(argv, "--entries") ?? "1000,5000,20000").split(",").map(Number);
  const version = option(argv, "--version") ?? defaultVersion;
  ensurePrerequisites();
  const installed = ensureCodeServer(version);
  const llm = await startBenchLlm();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-bench-editor-"));
  const workspace = path.join(stateDir, "workspace");
  fs.cpSync(sampleWorkspace, workspace, { recursive: true });
  const control = path.join(stateDir, "agent.json");
  const stampsFile = path.join(stateDir, "stamps.jsonl");
  const errorsFile = path.join(stateDir, "agent-errors.log");
  const phasesFile = path.join(stateDir, "phases.jsonl");
  fs.writeFileSync(stampsFile, "");
  // Our host as the extension runs it (the editor's Node, dist/agent-host.js), and pi on its Node 22.
  const launches = { host: peerLaunch("host", { mockBaseUrl: llm.baseUrl, cwd: workspace }), pi: peerLaunch("pi", { mockBaseUrl: llm.baseUrl, cwd: workspace }) };
  const hostLaunch = hostMemoryLaunch(process.platform, process.env, false);
  const targets: Record<Subject, { command: string; args: string[]; env: Record<string, string>; dropArgs?: string[] }> = {
    // As the extension launches its bundled host (Node's flags and malloc settings: extension/supervision/host-memory.ts).
    host: {
      command: installed.node,
      args: [...hostLaunch.nodeArgs, path.join(repoRoot, "dist", "agent-host.js")],
      env: { HOME: launches.host.env.HOME!, PI_CODING_AGENT_DIR: launches.host.agentDir, ...hostLaunch.env, ...(Object.keys(hostLaunch.env).length ? { PI_SECRET_ENV: Object.keys(hostLaunch.env).join(",") } : {}) },
    },
    pi: { command: NODE22, args: [launches.pi.args[0]!], env: { HOME: launches.pi.env.HOME!, PI_CODING_AGENT_DIR: launches.pi.agentDir, PI_OFFLINE: "1" } },
  };
  const metrics: Record<keyof StreamFigures, Metric> = {
    firstPaint: new Metric("firstPaint", "first delta leaves the agent → first frame showing it", "ms"),
    medianLatency: new Metric("medianLatency", "delta leaves the agent → frame showing it: median of the 4,000", "ms"),
    p95Latency: new Metric("p95Latency", "  95th percentile", "ms"),
    maxLatency: new Metric("maxLatency", "  worst", "ms"),
    longestFrame: new Metric("longestFrame", "longest frame in the webview during the stream", "ms"),
    streamMs: new Metric("streamMs", "first delta leaves → last delta shown", "ms"),
  };
  const bigCpu = new Metric("bigCallCpu", "1 MB write, 20-character deltas: extension host CPU per 100 KB (prompt → card done)", "ms");
  const bigDone = new Metric("bigCallDone", "  the model's last byte → the card done", "ms");
  const many = manyMetrics();
  const rate = option(argv, "--rate");
  const codeLine = option(argv, "--code");
  const paragraph = codeLine ?? option(argv, "--paragraph");
  const pace = { ...(rate ? { deltasPerSecond: Number(rate) } : {}), ...(paragraph ? { paragraph: Number(paragraph) } : {}), ...(codeLine ? { code: true } : {}) };
  const shareModes: ShareMode[] = argv.includes("--pool") ? ["pool"] : argv.includes("--no-pool") ? ["process"] : ["process", "pool"];
  const sessionOpen = new Metric("sessionOpen", "Resume Session: Enter on a 1,000-message session → its last message painted", "ms");
  const openMetrics = new Map<number, { total: Metric; render: Metric; scroll: Metric; scrollMedian: Metric; chatTask: Metric; heap: Metric }>();
  for (const n of sizes) {
    const size = n.toLocaleString("en-US");
    openMetrics.set(n, {
      total: n === 1000 ? sessionOpen : new Metric(`sessionOpen${n}`, `Resume Session: Enter on a ${size}-message session → its last message painted`, "ms"),
      render: new Metric(`sessionRender${n}`, `  of which the webview: ${size} items arrive → laid out and painted`, "ms"),
      scroll: new Metric(`sessionScroll${n}`, `  then scrolled up 30 pages and to its top: longest frame`, "ms"),
      scrollMedian: new Metric(`sessionScrollMedian${n}`, `    its median frame`, "ms"),
      chatTask: new Metric(`sessionChatTask${n}`, `    the longest task on the chat's own event loop (over 50 ms; 0: none)`, "ms"),
      heap: new Metric(`sessionHeap${n}`, `  the webview's JS heap after (garbage collected)`, "MB"),
    });
  }
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  if (only === "many") {
    try {
      await runManyAgents({ installed, llm, runs: Math.min(runs, 3), modes: shareModes, deltas: DELTAS, ...pace, metrics: many, until });
    } finally {
      await llm.close();
      launches.host.cleanup();
      launches.pi.cleanup();
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
    console.log(`eight agents at once, each stream ${rate ? `paced at ${rate} deltas per second` : "as fast as the scripted server writes it (40 deltas a write)"}, ${codeLine ? `one code block, a line every ${codeLine} deltas` : paragraph ? `a paragraph every ${paragraph} deltas` : "one paragraph"}; load average now ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}:`);
    for (const m of Object.values(many)) console.log(`${m.label}: ${shareModes.map((mode) => `${mode} ${m.cell(mode)}`).join(", ")}`);
    return;
  }
  let activation: number | undefined;
  let ownActivation: { ms: number; parts?: string } | undefined;
  try {
    server = await startCodeServer({
      installed,
      workspace,
      stateDir,
      settings: {
        "pi.agent.command": path.join(__dirname, "stamp-agent.mjs"),
        "pi.agent.args": ["--provider", "mock", "--model", "mock", "--no-session", "--offline"],
        // The 1 MB write runs without a permission question.
        "pi.permissions.confirmTools": [],
        // stamp-agent.mjs is an "other agent" (pi.agent.command): wrapped whole in the sandbox it would
        // see a private /tmp without its control file, nor reach the scripted server (no network) —
        // on a fresh checkout the bench failed with "The agent exited (code 1)".
        "pi.sandbox.otherAgents": false,
        "pi.agent.env": { BENCH_EDITOR_CONTROL: control, BENCH_EDITOR_STAMPS: stampsFile, BENCH_EDITOR_ERRORS: errorsFile, BENCH_EDITOR_PHASES: phasesFile },
      },
    });
    const write = (subject: Subject, sessions = false) =>
      fs.writeFileSync(control, JSON.stringify({ ...targets[subject], ...(sessions ? { dropArgs: ["--no-session"] } : {}) }));
    write("host");
    workbench = await openWorkbench(workbenchUrl(server, { folder: workspace }), {
      developmentOptions: developmentOptions(server, { extensionDevelopmentPath: repoRoot }),
      // The webview's heap after a collection, in bytes rather than chromium's rounded buckets.
      chromiumArgs: ["--js-flags=--expose-gc", "--enable-precise-memory-info"],
    });
    const page = workbench.page;
    await waitForWorkbench(page);
    await page.click('.activitybar [aria-label^="Pi"]');
    const chat = await webviewFrame(page, CHAT, 60_000);
    const body = chat.locator("body");
    const command = (title: string) => runCommand(page, title);
    const prompt = async (text: string) => {
      await chat.locator("vscode-textarea#prompt textarea").fill(text);
      await chat.locator("vscode-button#send").click();
    };
    const ready = () => until("the agent to be ready", async () => ((await chat.locator("#status").textContent()) === "Ready" ? true : undefined));
    const stampLines = () => fs.readFileSync(stampsFile, "utf8").split("\n").filter(Boolean);
    // The chat takes the focus when it first loads, which would close a palette opened meanwhile.
    await ready();
    // The extension activates when the Pi view opens (nothing before): its activation time now.
    activation = await activationTime(page, "pi-agent-vscode").catch((error: unknown) => (console.warn(`activation time: ${String(error)}`), undefined));
    ownActivation = activationFromLog(server.userDataDir);
    console.log(`activation: ${activation ?? "?"} ms (Running Extensions), ${ownActivation?.ms ?? "?"} ms (the extension's own${ownActivation?.parts ? `: ${ownActivation.parts}` : ""})`);
    for (let round = only === "open" || only === "bigcall" ? runs : -1; round < runs; round++) {
      for (const subject of rotate<Subject>(["host", "pi"], Math.max(round, 0))) {
        write(subject);
        await command("Pi: Restart Agent");
        await ready();
        // A first short reply (lazy loading in the agent), then the measured stream.
        llm.script([{ text: ["OK."] }, { text: streamDeltas(DELTAS) }]);
        let lines = stampLines().length;
        await prompt("hello");
        await until("the first reply", async () => (stampLines().length > lines ? true : undefined));
        await ready();
        await body.evaluate(installProbe, TEXT);
        lines = stampLines().length;
        await prompt("stream please");
        await until("the last delta on screen", async () => ((await body.evaluate(lastShown, TEXT)) === DELTAS - 1 ? true : undefined), 120_000);
        await until("the stamps of the run", async () => (stampLines().length > lines ? true : undefined));
        const stamps = JSON.parse(stampLines().at(-1)!) as number[];
        const figures = streamFigures(stamps, await body.evaluate(takeProbe));
        console.log(`${round < 0 ? "warm-up " : ""}${subject}: ${JSON.stringify(figures, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 10) / 10 : v))}`);
        if (round < 0 || !figures) continue;
        for (const key of Object.keys(metrics) as (keyof StreamFigures)[]) metrics[key].add(subject, figures[key]);
        await ready();
      }
    }
    /** Our host restarted behind the chat; the extension host's pid. */
    const withOurHost = async (): Promise<number> => {
      write("host");
      await command("Pi: Restart Agent");
      await ready();
      const pid = extensionHostPid(server!.process.pid!);
      if (pid === undefined) throw new Error("the extension host process was not found under code-server");
      return pid;
    };
    // The 1 MB write, with our host only: pi's cost is quadratic (400 KB took 262 s in issue 31).
    if (!only || only === "bigcall") {
      const extensionHost = await withOurHost();
      for (let round = -1; round < Math.min(runs, 3); round++) {
        const figures = await bigCall({ chat, llm, extensionHost, workspace, prompt, until });
        await ready();
        console.log(`${round < 0 ? "warm-up " : ""}host: 1 MB write: ${figures.cpuPer100KB.toFixed(1)} ms CPU per 100 KB, last byte → card done ${figures.lastByteToDoneMs.toFixed(0)} ms`);
        if (round < 0) continue;
        bigCpu.add("host", figures.cpuPer100KB);
        bigDone.add("host", figures.lastByteToDoneMs);
      }
    }
    // Opening a 1,000-message session: agents that keep sessions, Resume Session, a fresh file per run.
    for (let round = only === "stream" || only === "bigcall" ? runs : -1; round < runs; round++) {
      for (const subject of rotate<Subject>(["host", "pi"], Math.max(round, 0))) {
        write(subject, true);
        await command("Pi: Restart Agent");
        await ready();
        for (const [entries, metric] of openMetrics) {
          const tag = `${subject}${round + 1}x${entries}`;
          const ms = await openSession({ page, chat, agentDirs: [launches.host.agentDir, launches.pi.agentDir], workspace, tag, entries, runCommand: command, phasesFile });
          console.log(`${round < 0 ? "warm-up " : ""}${subject}: ${entries}-message session shown after ${Math.round(ms.total)} ms (webview ${ms.render === undefined ? "?" : Math.round(ms.render)} ms)${ms.phases ? `: ${ms.phases}` : ""}`);
          if (ms.scroll.longestFrameParts) console.log(`  its longest frame scrolling to the top: ${ms.scroll.longestFrameParts}`);
          console.log(`  after the scroll the webview holds ${ms.scroll.entriesAfter.entries} entries, ${ms.scroll.entriesAfter.parts} history parts of them`);
          for (const line of ms.longFrames) console.log(`  ${line}`);
          const f = ms.toFirst;
          console.log(`  then held at the top until its first message showed: ${f.ms === undefined ? "not within 60 s" : `${Math.round(f.ms)} ms`}, ${f.frames} frames, longest ${Math.round(f.longestFrame)} ms, ${f.framesOver50} over 50 ms; ${f.parts} history parts`);
          for (const line of ms.toFirstLongFrames) console.log(`    ${line}`);
          if (round < 0) continue;
          metric.total.add(subject, ms.total);
          if (ms.render !== undefined) metric.render.add(subject, ms.render);
          metric.scroll.add(subject, ms.scroll.longestFrame);
          metric.scrollMedian.add(subject, ms.scroll.medianFrame);
          if (ms.scroll.chatLongestTask !== undefined) metric.chatTask.add(subject, ms.scroll.chatLongestTask);
          if (ms.scroll.heapMb !== undefined) metric.heap.add(subject, ms.scroll.heapMb);
        }
      }
    }
  } catch (error) {
    const shot = path.join(os.tmpdir(), "pi-bench-editor-failure.png");
    await workbench?.page.screenshot({ path: shot }).catch(() => undefined);
    console.error(`screenshot: ${shot}; code-server log: ${server?.logFile ?? "-"}\n${workbench?.consoleLines.slice(-15).join("\n") ?? ""}`);
    if (fs.existsSync(errorsFile)) console.error(fs.readFileSync(errorsFile, "utf8"));
    throw error;
  } finally {
    await workbench?.close();
    await server?.stop();
    // Eight agents at once: a code-server of its own, after the other one has stopped.
    if (!only) await runManyAgents({ installed, llm, runs: Math.min(runs, 3), modes: shareModes, deltas: DELTAS, ...pace, metrics: many, until }).catch((error: unknown) => console.error(`eight agents at once: ${error instanceof Error ? error.stack : String(error)}`));
    await llm.close();
    launches.host.cleanup();
    launches.pi.cleanup();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  const opened = [...openMetrics.values()].flatMap((m) => [m.total, m.render, m.scroll, m.scrollMedian, m.chatTask, m.heap]);
  // The webview's heap with the largest session over that with 1,000 messages (issue 31: ≤ 2x).
  const heapRatio = new Metric("sessionHeapRatio", `the webview's heap: the ${Math.max(...sizes).toLocaleString("en-US")}-message session's over the 1,000-message one's`, "x");
  for (const subject of ["host", "pi"]) {
    const small = openMetrics.get(1000)?.heap.summary(subject)?.median;
    const large = openMetrics.get(Math.max(...sizes))?.heap.summary(subject)?.median;
    if (small && large) heapRatio.add(subject, large / small);
  }
  opened.push(heapRatio);
  // A partial run (--only open) prints its figures but leaves the full report alone.
  if (only === "open") for (const m of opened) console.log(`${m.label}: host ${m.cell("host")}, pi ${m.cell("pi")}`);
  else if (only === "stream") for (const m of Object.values(metrics)) console.log(`${m.label}: host ${m.cell("host")}, pi ${m.cell("pi")}`);
  else if (only === "bigcall") for (const m of [bigCpu, bigDone]) console.log(`${m.label}: host ${m.cell("host")}`);
  else writeEditorReport(path.join(repoRoot, "bench", "RESULTS-editor.md"), { version, runs, activation, ownActivation, metrics: [...Object.values(metrics), bigCpu, bigDone, ...opened], many: { metrics: Object.values(many), modes: shareModes.map((mode) => [mode, SHARE_MODES[mode]]) } });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});

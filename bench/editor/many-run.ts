/**
 * `npm run bench:editor -- --only many`: eight agents at once as users run them. A code-server of
 * its own (its settings differ from the other scenarios'): no `pi.agent.command`, so the extension
 * launches its bundled host itself, its agent dir (models.json of the scripted server) through
 * `pi.agent.env`, as test/vscode/suite/host-fixture.ts does. `pi.agent.shareProcess` off (a
 * process per session) and on (one process, a worker per session), alternating round by round
 * (`--pool` or `--no-pool`: one of them only). Each delta's time is taken by the scripted server
 * when it writes the SSE carrying it (bench/lib/llm.ts): no wrapper around the agent.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openWorkbench, waitForWorkbench, type Workbench } from "../../test/vscode/harness/browser";
import { developmentOptions, startCodeServer, workbenchUrl, type CodeServer, type Installed } from "../../test/vscode/harness/code-server";
import { repoRoot, sampleWorkspace } from "../../test/vscode/harness/paths";
import { webviewFrame } from "../../test/vscode/harness/webviews";
import { peerLaunch } from "../../test/support/peers";
import type { BenchLlm } from "../lib/llm";
import { Metric, rotate } from "../lib/stats";
import { runCommand } from "./commands";
import { AGENTS, agentProcesses, closeTabs, manyAgents, type CpuGroup } from "./many-agents";
import { bareNodeRssMb, extensionHostPid } from "./processes";

export type ShareMode = "process" | "pool";
export const SHARE_MODES: Record<ShareMode, string> = { process: "a process per session", pool: "one shared process (pi.agent.shareProcess)" };

/** The CPU each group of processes spent from the eighth prompt to the eight messages ended. */
const CPU_GROUPS: Record<CpuGroup, string> = {
  agents: "    CPU in it: the agents",
  extensionHost: "    the extension host",
  renderers: "    chromium renderers (workbench and webviews)",
  chromium: "    chromium's other processes (browser, GPU, utility)",
  codeServer: "    code-server's other processes",
  bench: "    the bench (scripted server, Playwright)",
};

export function manyMetrics(): Record<string, Metric> {
  const cpuMetrics = Object.fromEntries(Object.entries(CPU_GROUPS).map(([group, label]) => [`cpu:${group}`, new Metric(`manyCpu:${group}`, label, "ms")]));
  return {
    maxLatency: new Metric("manyMaxLatency", `${AGENTS} agents at once, 4,000 deltas each: the model's write carrying a delta → frame showing it, worst (chats on screen)`, "ms"),
    medianLatency: new Metric("manyMedianLatency", "  median", "ms"),
    p95Latency: new Metric("manyP95Latency", "  95th percentile", "ms"),
    streamMs: new Metric("manyStreamMs", "  the model's first write → last delta shown", "ms"),
    longestFrame: new Metric("manyLongestFrame", "  longest frame in the chats on screen", "ms"),
    cpu: new Metric("manyCpu", "  extension host CPU per 1,000 deltas", "ms"),
    oursCpu: new Metric("manyOursCpu", "  of which our code on its main thread per 1,000 deltas (profiled: $BENCH_HOST_PROFILE_DIR)", "ms"),
    oursLongest: new Metric("manyOursLongest", "  our code's longest stretch on that thread (profiled)", "ms"),
    oursLongestBusy: new Metric("manyOursLongestBusy", "  the longest busy stretch holding ours (profiled; what ran next to it without a pause included)", "ms"),
    longestTurn: new Metric("manyLongestTurn", "  the extension host's longest turn: a 1 ms timer beside ours held up by any task (profiled)", "ms"),
    oursInOneTurn: new Metric("manyOursInOneTurn", "  the most of ours in one such turn: our longest task at most (profiled; time off the CPU in it)", "ms"),
    oursInOneTurnRunning: new Metric("manyOursInOneTurnRunning", "    the same, the thread running (samples x 250 µs)", "ms"),
    oneSession: new Metric("manyOneSessionRss", "  agent RSS with one session, after its stream (its process / the shared process)", "MB"),
    allSessions: new Metric("manyAllSessionsRss", "  agent RSS with eight sessions, after their streams (all processes)", "MB"),
    agentPerSession: new Metric("manyAgentPerSession", "  agent memory per extra session (own processes: an agent's RSS; shared: (RSS of 8 − RSS of 1) / 7)", "MB"),
    hostGrowth: new Metric("manyHostGrowth", "  extension host RSS growth per extra session", "MB"),
    memoryRatio: new Metric("manyMemoryRatio", "  memory per extra session (agent + extension host growth) over a bare Node process", "x"),
    windowMs: new Metric("manyWindow", "  the eighth prompt → the eight messages ended (wall; 2 cores give twice this in CPU)", "ms"),
    ...cpuMetrics,
  };
}

interface Options {
  installed: Installed;
  llm: BenchLlm;
  runs: number;
  modes: ShareMode[];
  deltas: number;
  /** Each stream's deltas per second (`--rate`); as fast as the server writes when absent. */
  deltasPerSecond?: number;
  /** Deltas per paragraph of each reply (`--paragraph`); one paragraph when absent. */
  paragraph?: number;
  /** Each reply one fenced code block, a line every `paragraph` deltas (`--code N`). */
  code?: boolean;
  metrics: Record<string, Metric>;
  until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
}

/** The lines of the extension's log (its "Pi Agent" output channel) under a user-data folder that match. */
function piLogLines(userDataDir: string, match: RegExp): string[] {
  return fs
    .readdirSync(userDataDir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith("Pi Agent.log"))
    .flatMap((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8").split("\n").filter((line) => match.test(line)));
}

/**
 * `pi.agent.shareProcess` set in code-server's settings (the extension reads it at each agent
 * start). A machine-scoped setting: its window reads it from the Machine settings, not the user's.
 */
function setShareProcess(userDataDir: string, on: boolean): void {
  for (const scope of ["User", "Machine"]) {
    const file = path.join(userDataDir, scope, "settings.json");
    const settings = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>) : {};
    fs.writeFileSync(file, JSON.stringify({ ...settings, "pi.agent.shareProcess": on }, null, 2));
  }
}

export async function runManyAgents(o: Options): Promise<void> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-bench-many-"));
  const workspace = path.join(stateDir, "workspace");
  fs.cpSync(sampleWorkspace, workspace, { recursive: true });
  // The agent dir with the scripted server's "mock" provider; sessions are kept, as a user's are.
  const launch = peerLaunch("host", { mockBaseUrl: o.llm.baseUrl, cwd: workspace });
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  try {
    server = await startCodeServer({
      installed: o.installed,
      workspace,
      stateDir,
      settings: {
        "pi.agent.env": { HOME: launch.env.HOME!, PI_CODING_AGENT_DIR: launch.agentDir },
        "pi.model.provider": "mock",
        "pi.model.id": "mock",
        "pi.permissions.confirmTools": [],
        "pi.agent.shareProcess": o.modes[0] === "pool",
      },
    });
    workbench = await openWorkbench(workbenchUrl(server, { folder: workspace }), { developmentOptions: developmentOptions(server, { extensionDevelopmentPath: repoRoot }) });
    const page = workbench.page;
    await waitForWorkbench(page);
    await page.click('.activitybar [aria-label^="Pi"]');
    const chat = await webviewFrame(page, "Chat", 60_000);
    const command = (title: string) => runCommand(page, title);
    const ready = () => o.until("the agent to be ready", async () => ((await chat.locator("#status").textContent()) === "Ready" ? true : undefined));
    await ready();
    const extensionHost = extensionHostPid(server.process.pid!);
    if (extensionHost === undefined) throw new Error("the extension host process was not found under code-server");
    const bareNode = await bareNodeRssMb(o.installed.node);
    for (let round = -1; round < o.runs; round++) {
      for (const mode of rotate(o.modes, Math.max(round, 0))) {
        setShareProcess(server.userDataDir, mode === "pool");
        // The setting is read at the agent's start: restarted until the side chat's agent runs as asked (the settings file is read a moment after it changes).
        let found = "";
        const asked = o.until(`the side chat's agent in ${SHARE_MODES[mode]}`, async () => {
          await command("Pi: Restart Agent");
          await ready();
          try {
            return agentProcesses(extensionHost, mode === "pool").length === 1 ? true : undefined;
          } catch (error) {
            found = String(error);
            return undefined;
          }
        });
        await asked.catch((error: unknown) => Promise.reject(new Error(`${String(error)}; ${found}`)));
        const f = await manyAgents({ page, sideChat: chat, llm: o.llm, extensionHost, shared: mode === "pool", agentDir: launch.agentDir, deltas: o.deltas, ...(o.deltasPerSecond ? { deltasPerSecond: o.deltasPerSecond } : {}), ...(o.paragraph ? { paragraph: o.paragraph } : {}), ...(o.code ? { code: true } : {}), bareNodeRssMb: bareNode, command, until: o.until });
        await closeTabs(command);
        const { longFrames, ...rest } = f;
        console.log(`${round < 0 ? "warm-up " : ""}${mode}: ${AGENTS} agents at once: ${JSON.stringify(rest, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 10) / 10 : v))}`);
        for (const line of longFrames) console.log(`  ${line}`);
        if (round < 0) continue;
        const m = o.metrics;
        m.maxLatency!.add(mode, f.shown.maxLatency);
        m.medianLatency!.add(mode, f.shown.medianLatency);
        m.p95Latency!.add(mode, f.shown.p95Latency);
        m.streamMs!.add(mode, f.shown.streamMs);
        m.longestFrame!.add(mode, f.shown.longestFrame);
        m.cpu!.add(mode, f.cpuPer1000Deltas);
        if (f.ours) {
          m.oursCpu!.add(mode, f.ours.per1000Deltas);
          m.oursLongest!.add(mode, f.ours.longestOursMs);
          m.oursLongestBusy!.add(mode, f.ours.longestBusyWithOursMs);
          if (f.ours.longestTurnMs !== undefined) m.longestTurn!.add(mode, f.ours.longestTurnMs);
          if (f.ours.mostOursInOneTurnMs !== undefined) m.oursInOneTurn!.add(mode, f.ours.mostOursInOneTurnMs);
          if (f.ours.mostOursInOneTurnRunningMs !== undefined) m.oursInOneTurnRunning!.add(mode, f.ours.mostOursInOneTurnRunningMs);
        }
        m.oneSession!.add(mode, f.oneSessionRssMb);
        m.allSessions!.add(mode, f.allSessionsRssMb);
        m.agentPerSession!.add(mode, f.agentPerSessionMb);
        m.hostGrowth!.add(mode, f.extensionHostPerSessionMb);
        m.memoryRatio!.add(mode, (f.agentPerSessionMb + f.extensionHostPerSessionMb) / f.bareNodeRssMb);
        m.windowMs!.add(mode, f.windowMs);
        for (const group of Object.keys(CPU_GROUPS) as CpuGroup[]) m[`cpu:${group}`]!.add(mode, f.cpuMs[group] ?? 0);
      }
    }
  } catch (error) {
    const shot = path.join(os.tmpdir(), "pi-bench-many-failure.png");
    await workbench?.page.screenshot({ path: shot }).catch(() => undefined);
    console.error(`screenshot: ${shot}; code-server log: ${server?.logFile ?? "-"}\n${workbench?.consoleLines.slice(-15).join("\n") ?? ""}`);
    // Why a session did not share a process, as the extension logs it (host-pools.ts).
    if (server) console.error(piLogLines(server.userDataDir, /pool: /).join("\n"));
    throw error;
  } finally {
    await workbench?.close();
    await server?.stop();
    launch.cleanup();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * The host benchmarks. Each scenario runs `runs` alternating rounds (after one discarded warm-up
 * round) over its subjects, each run in a fresh process, and fills its metrics.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { AGENTS, FLOORS, startAgent, type Agent, type SubjectId } from "./lib/agent";
import { streamDeltas, type BenchLlm } from "./lib/llm";
import { writeSession } from "./lib/sessions";
import { Metric, rotate, sleep } from "./lib/stats";

export interface Context {
  llm: BenchLlm;
  runs: number;
  /** Scratch folder (work dir with tiny.txt, generated sessions). */
  dir: string;
  log(line: string): void;
}

export interface Scenario {
  name: string;
  subjects: SubjectId[];
  metrics: Metric[];
  /** At most this many rounds, whatever `--runs` says (a long scenario). */
  maxRuns?: number;
  /** Called once before the rounds. */
  setup?(ctx: Context): void;
  /** One measured run of one subject. */
  run(ctx: Context, subject: SubjectId, record: boolean): Promise<void>;
}

const MB = 1024;
export const STREAM_DELTAS = 4000;
const STREAM_CHARS = STREAM_DELTAS * 5;
const TOOL_TURNS = 100;

function workDir(ctx: Context): string {
  return path.join(ctx.dir, "work");
}

/** Starts a subject in the work dir, runs `body`, always stops it. */
async function withAgent<T>(ctx: Context, subject: SubjectId, body: (agent: Agent, startMs: number, startCpuMs: number) => Promise<T>): Promise<T> {
  const { agent, startMs, startCpuMs } = await startAgent(subject, { baseUrl: ctx.llm.baseUrl, cwd: workDir(ctx) });
  try {
    return await body(agent, startMs, startCpuMs);
  } finally {
    await agent.stop();
  }
}

/** Sends a prompt and resolves when the run has settled; returns the time from the send and the agent's CPU time meanwhile (ms). */
export async function promptToSettled(agent: Agent, message: string): Promise<{ ms: number; cpuMs: number }> {
  const cpu0 = agent.cpuMs();
  const t0 = performance.now();
  const settled = agent.waitFor((f) => f.type === "agent_settled");
  await agent.request({ type: "prompt", message });
  await settled;
  const ms = performance.now() - t0;
  return { ms, cpuMs: agent.cpuMs() - cpu0 };
}

export function startupScenario(idleMs: number): Scenario {
  const start = new Metric("start", "spawn → first get_state response", "ms");
  const startCpu = new Metric("startCpu", "  CPU time used by then", "ms");
  const idle = new Metric("idleRss", `idle RSS ${idleMs} ms after start`, "MB");
  return {
    name: "start-up and idle RSS",
    subjects: [...AGENTS, ...FLOORS],
    metrics: [start, startCpu, idle],
    async run(ctx, subject, record) {
      await withAgent(ctx, subject, async (agent, startMs, startCpuMs) => {
        await sleep(idleMs);
        if (!record) return;
        start.add(subject, startMs);
        startCpu.add(subject, startCpuMs);
        idle.add(subject, agent.memory().rssKb / MB);
      });
    },
  };
}

export function streamScenario(): Scenario {
  const first = new Metric("firstPrompt", "first prompt → agent_settled (reply \"OK.\")", "ms");
  const time = new Metric("stream", `${STREAM_CHARS} chars in ${STREAM_DELTAS} deltas: prompt → agent_settled`, "ms");
  const cpu = new Metric("streamCpu", "  CPU time of the agent in that run", "ms");
  const bytes = new Metric("streamBytes", "  stdout bytes of that run", "kB");
  const peak = new Metric("peakRss", "  peak RSS (VmHWM) at its end", "MB");
  const text = streamDeltas(STREAM_DELTAS);
  return {
    name: "stream",
    subjects: AGENTS,
    metrics: [first, time, cpu, bytes, peak],
    async run(ctx, subject, record) {
      await withAgent(ctx, subject, async (agent) => {
        ctx.llm.script([{ text: ["OK."] }, { text }]);
        const warm = await promptToSettled(agent, "hello");
        const before = agent.stdoutBytes;
        const { ms, cpuMs } = await promptToSettled(agent, "stream please");
        if (!record) return;
        first.add(subject, warm.ms);
        time.add(subject, ms);
        cpu.add(subject, cpuMs);
        bytes.add(subject, (agent.stdoutBytes - before) / 1000);
        peak.add(subject, agent.memory().hwmKb / MB);
      });
    },
  };
}

export function toolsScenario(): Scenario {
  const total = new Metric("toolsTotal", `${TOOL_TURNS}-turn tool session (read tiny.txt): prompt → agent_settled`, "ms");
  const server = new Metric("toolsServer", "  of which LLM server time", "ms");
  const perTurn = new Metric("turnOverhead", "  host overhead per LLM turn ((total − server) / requests)", "ms");
  const turnCpu = new Metric("turnCpu", "  agent CPU time per LLM turn", "ms");
  return {
    name: "tool turns",
    subjects: AGENTS,
    metrics: [total, server, perTurn, turnCpu],
    setup(ctx) {
      fs.writeFileSync(path.join(workDir(ctx), "tiny.txt"), "hello bench\n");
    },
    async run(ctx, subject, record) {
      await withAgent(ctx, subject, async (agent) => {
        const turns = Array.from({ length: TOOL_TURNS }, () => ({ toolCall: { name: "read", arguments: { path: "tiny.txt" } } }));
        ctx.llm.script([...turns, { text: ["Done."] }]);
        ctx.llm.reset();
        const { ms, cpuMs } = await promptToSettled(agent, "read tiny.txt a hundred times");
        const { requests, serverMs } = ctx.llm.stats;
        if (requests !== TOOL_TURNS + 1) throw new Error(`${subject}: expected ${TOOL_TURNS + 1} LLM requests, got ${requests}`);
        if (!record) return;
        total.add(subject, ms);
        server.add(subject, serverMs);
        perTurn.add(subject, (ms - serverMs) / requests);
        turnCpu.add(subject, cpuMs / requests);
      });
    },
  };
}

export function switchScenario(): Scenario {
  const time = new Metric("switch", "switch_session to a 10 MB session → response", "ms");
  const cpu = new Metric("switchCpu", "  CPU time of the agent meanwhile", "ms");
  const messages = new Metric("switchMessages", "  then get_messages (what a client shows) → response", "ms");
  const rss = new Metric("switchRss", "  RSS after both", "MB");
  let master = "";
  return {
    name: "10 MB session switch",
    subjects: AGENTS,
    metrics: [time, cpu, messages, rss],
    setup(ctx) {
      master = path.join(ctx.dir, "big-master.jsonl");
      const size = writeSession(master, { entries: 2000, textChars: 3100, cwd: workDir(ctx) });
      time.label = `switch_session to a ${(size / 1e6).toFixed(1)} MB session (2,000 entries) → response`;
    },
    async run(ctx, subject, record) {
      // A fresh copy each run: agents may append to the session they switched to.
      const file = path.join(ctx.dir, "big.jsonl");
      fs.copyFileSync(master, file);
      await withAgent(ctx, subject, async (agent) => {
        const cpu0 = agent.cpuMs();
        const t0 = performance.now();
        await agent.request({ type: "switch_session", sessionPath: file });
        const ms = performance.now() - t0;
        const cpuMs = agent.cpuMs() - cpu0;
        const t1 = performance.now();
        await agent.request({ type: "get_messages" });
        const messagesMs = performance.now() - t1;
        if (!record) return;
        time.add(subject, ms);
        cpu.add(subject, cpuMs);
        messages.add(subject, messagesMs);
        rss.add(subject, agent.memory().rssKb / MB);
      });
    },
  };
}

export function treeScenario(): Scenario {
  const time = new Metric("tree", "get_tree, 5,000 entries (5 branches of 1,000) → response", "ms");
  const bytes = new Metric("treeBytes", "  response bytes", "kB");
  const linear = new Metric("treeLinear", "get_tree, 5,000 entries in one chain", "ms");
  const files = { branched: "", linear: "" };
  return {
    name: "get_tree",
    subjects: AGENTS,
    metrics: [time, bytes, linear],
    setup(ctx) {
      files.branched = path.join(ctx.dir, "tree-master.jsonl");
      files.linear = path.join(ctx.dir, "linear-master.jsonl");
      writeSession(files.branched, { entries: 5000, textChars: 200, cwd: workDir(ctx), branches: 5, forkStride: 100 });
      writeSession(files.linear, { entries: 5000, textChars: 200, cwd: workDir(ctx) });
    },
    async run(ctx, subject, record) {
      const file = path.join(ctx.dir, "tree.jsonl");
      fs.copyFileSync(files.branched, file);
      await withAgent(ctx, subject, async (agent) => {
        await agent.request({ type: "switch_session", sessionPath: file });
        const before = agent.stdoutBytes;
        const t0 = performance.now();
        await agent.request({ type: "get_tree" });
        const ms = performance.now() - t0;
        if (!record) return;
        time.add(subject, ms);
        bytes.add(subject, (agent.stdoutBytes - before) / 1000);
        if (linear.samples.has(subject) || linear.errors.has(subject)) return;
        // Once per subject: the same size as one chain (depth 5,000).
        fs.copyFileSync(files.linear, file);
        await agent.request({ type: "switch_session", sessionPath: file });
        const t1 = performance.now();
        await agent.request({ type: "get_tree" }).then(
          () => linear.add(subject, performance.now() - t1),
          (error: unknown) => linear.fail(subject, error),
        );
      });
    },
  };
}

/** Runs a scenario: setup, one discarded warm-up round, then `runs` rounds in rotating order. */
export async function runScenario(ctx: Context, scenario: Scenario): Promise<void> {
  scenario.setup?.(ctx);
  const t0 = performance.now();
  const runs = Math.min(ctx.runs, scenario.maxRuns ?? ctx.runs);
  for (let round = -1; round < runs; round++) {
    for (const subject of rotate(scenario.subjects, Math.max(round, 0))) {
      try {
        await scenario.run(ctx, subject, round >= 0);
      } catch (error) {
        for (const metric of scenario.metrics) metric.fail(subject, error);
        ctx.log(`  ${subject}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
  }
  ctx.log(`  ${scenario.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

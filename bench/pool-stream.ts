/**
 * `npx tsx bench/pool-stream.ts [--runs 3] [--sessions 8]`: eight streams at once through the
 * bundled host without the editor, one process per session against one shared process
 * (`agent-host --pool`), launched as the editor launches its host. Each session gets a 4,000-delta
 * stream, all released together by the scripted server. Measured per round: the wall time from
 * the release to the last session's agent_settled, the agents' CPU time (all threads), and how many
 * reads the reader of their stdout got (each read is work for the extension host). Issue 31: in
 * the editor the shared process took twice the time of eight processes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostMemoryLaunch } from "../extension/supervision/host-memory";
import { cpuMsOf, NODE20, startAgent, type Agent } from "./lib/agent";
import { startBenchLlm, streamDeltas, type BenchLlm } from "./lib/llm";
import { BenchPool } from "./lib/pool";
import { Metric } from "./lib/stats";

const DELTAS = 4000;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Round {
  ms: number;
  cpuMs: number;
  reads: number;
}

/** Counts the reads of a stdout and its bytes. */
function countReads(stream: NodeJS.ReadableStream): () => number {
  let reads = 0;
  stream.on("data", () => reads++);
  return () => reads;
}

async function release(llm: BenchLlm, count: number, prompt: (i: number) => Promise<void>): Promise<number> {
  llm.script(Array.from({ length: count }, (_, i) => ({ text: streamDeltas(DELTAS, i * DELTAS) })));
  llm.hold(count);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: count }, (_, i) => prompt(i)));
  return performance.now() - t0;
}

async function pooled(llm: BenchLlm, cwd: string, count: number, editorLaunch: { nodeArgs: string[]; env: Record<string, string> }): Promise<Round> {
  // BENCH_POOL_NODE_ARGS: more Node options for the pool process (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": a profile per thread).
  const extra = (process.env.BENCH_POOL_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const pool = new BenchPool({ node: NODE20, baseUrl: llm.baseUrl, cwd, editorLaunch: { ...editorLaunch, nodeArgs: [...editorLaunch.nodeArgs, ...extra] }, maxYoungGenerationSizeMb: 3 });
  try {
    const ids = Array.from({ length: count }, (_, i) => `s${i}`);
    await Promise.all(ids.map((id) => pool.open(id)));
    llm.script(ids.map(() => ({ text: ["OK."] })));
    await Promise.all(ids.map((id) => pool.promptToSettled(id, "hello")));
    const reads = countReads(pool.child.stdout);
    const cpu0 = cpuMsOf(pool.pid);
    const ms = await release(llm, count, (i) => pool.promptToSettled(ids[i]!, "stream please"));
    return { ms, cpuMs: cpuMsOf(pool.pid) - cpu0, reads: reads() };
  } finally {
    await pool.stop();
  }
}

async function separate(llm: BenchLlm, cwd: string, count: number, editorLaunch: { nodeArgs: string[]; env: Record<string, string> }): Promise<Round> {
  const agents: Agent[] = [];
  try {
    for (let i = 0; i < count; i++) agents.push((await startAgent("host@20", { baseUrl: llm.baseUrl, cwd, editorLaunch })).agent);
    const settle = (agent: Agent, message: string) => {
      const settled = agent.waitFor((f) => f.type === "agent_settled");
      return agent.request({ type: "prompt", message }).then(() => settled).then(() => undefined);
    };
    llm.script(agents.map(() => ({ text: ["OK."] })));
    await Promise.all(agents.map((agent) => settle(agent, "hello")));
    const counters = agents.map((agent) => countReads(agent.child.stdout));
    const cpu = () => agents.reduce((sum, agent) => sum + agent.cpuMs(), 0);
    const cpu0 = cpu();
    const ms = await release(llm, count, (i) => settle(agents[i]!, "stream please"));
    return { ms, cpuMs: cpu() - cpu0, reads: counters.reduce((sum, reads) => sum + reads(), 0) };
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()));
  }
}

async function main(): Promise<void> {
  const runs = Number(option("--runs") ?? 3);
  const count = Number(option("--sessions") ?? 8);
  const llm = await startBenchLlm();
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "pi-pool-stream-"));
  const editorLaunch = hostMemoryLaunch(process.platform, process.env, false);
  const metrics = { ms: new Metric("ms", "release → every session's agent_settled", "ms"), cpuMs: new Metric("cpuMs", "agents' CPU (all threads)", "ms"), reads: new Metric("reads", "reads of their stdout", "x") };
  try {
    for (let round = -1; round < runs; round++) {
      for (const [name, run] of [["process", separate], ["pool", pooled]] as const) {
        const r = await run(llm, cwd, count, editorLaunch);
        console.log(`${round < 0 ? "warm-up " : ""}${name}: ${Math.round(r.ms)} ms, CPU ${Math.round(r.cpuMs)} ms, ${r.reads} reads`);
        if (round < 0) continue;
        for (const key of Object.keys(metrics) as (keyof Round)[]) metrics[key].add(name, r[key]);
      }
    }
  } finally {
    await llm.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  }
  console.log(`${count} sessions, ${DELTAS} deltas each, at once; medians of ${runs} (Node ${process.version}, ${os.availableParallelism()} CPUs, load ${os.loadavg()[0]!.toFixed(2)}):`);
  for (const m of Object.values(metrics)) console.log(`  ${m.label}: a process each ${m.cell("process")}, one shared ${m.cell("pool")}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});

/**
 * `npm run bench:memory -- --pool`: what one more session costs when the bundled host's sessions
 * share one process (`agent-host --pool`, a worker per session) against a process per session.
 * For N sessions (1, 2, 4, 8): one pool process with N sessions, and N hosts of their own, each
 * session after one prompt and a 4,000-delta stream (all N streams at once, the scripted model
 * holding the requests until all have come), both launched as the editor launches its host
 * (extension/supervision/host-memory.ts); and a bare Node process of the same binary. Memory per
 * extra session = (RSS with N − RSS with 1) / (N − 1); medians of `runs` rounds.
 */
import * as os from "node:os";
import { startAgent, NODE20, NODE22, type Agent } from "./lib/agent";
import type { BenchLlm } from "./lib/llm";
import { streamDeltas } from "./lib/llm";
import { BenchPool } from "./lib/pool";
import { Metric, sleep } from "./lib/stats";
import { promptToSettled } from "./scenarios";

export interface PoolMemoryOptions {
  llm: BenchLlm;
  cwd: string;
  runs: number;
  idleMs: number;
  counts: number[];
  node: 20 | 22;
  editorLaunch: { nodeArgs: string[]; env: Record<string, string> };
  /** RSS of a process, MB. */
  rssMb(pid: number): number;
}

/** The young generation the extension caps a pooled worker at: what `--max-semi-space-size=1` gives a process (two semi-spaces and the new large-object space). */
const WORKER_YOUNG_MB = 3;

/** One prompt then the 4,000-delta stream, in every session at once. */
async function promptAll(llm: BenchLlm, count: number, prompt: (index: number, message: string) => Promise<void>): Promise<void> {
  llm.script(Array.from({ length: count }, () => ({ text: ["OK."] })));
  await Promise.all(Array.from({ length: count }, (_, i) => prompt(i, "hello")));
  llm.script(Array.from({ length: count }, (_, i) => ({ text: streamDeltas(4000, i * 4000) })));
  llm.hold(count);
  await Promise.all(Array.from({ length: count }, (_, i) => prompt(i, "stream please")));
}

async function pooledRss(options: PoolMemoryOptions, count: number): Promise<number> {
  const pool = new BenchPool({ node: options.node === 20 ? NODE20 : NODE22, baseUrl: options.llm.baseUrl, cwd: options.cwd, editorLaunch: options.editorLaunch, maxYoungGenerationSizeMb: WORKER_YOUNG_MB });
  try {
    const ids = Array.from({ length: count }, (_, i) => `s${i}`);
    await Promise.all(ids.map((id) => pool.open(id)));
    await promptAll(options.llm, count, (i, message) => pool.promptToSettled(ids[i]!, message));
    await sleep(options.idleMs);
    return options.rssMb(pool.pid);
  } finally {
    await pool.stop();
  }
}

async function separateRss(options: PoolMemoryOptions, count: number): Promise<number> {
  const agents: Agent[] = [];
  try {
    for (let i = 0; i < count; i++) agents.push((await startAgent(options.node === 20 ? "host@20" : "host@22", { baseUrl: options.llm.baseUrl, cwd: options.cwd, editorLaunch: options.editorLaunch })).agent);
    await promptAll(options.llm, count, async (i, message) => void (await promptToSettled(agents[i]!, message)));
    await sleep(options.idleMs);
    return agents.reduce((sum, agent) => sum + options.rssMb(agent.pid), 0);
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()));
  }
}

async function floorRss(options: PoolMemoryOptions): Promise<number> {
  const { agent } = await startAgent(options.node === 20 ? "floor@20" : "floor@22", { baseUrl: options.llm.baseUrl, cwd: options.cwd });
  try {
    await sleep(options.idleMs);
    return options.rssMb(agent.pid);
  } finally {
    await agent.stop();
  }
}

export async function poolMemory(options: PoolMemoryOptions): Promise<void> {
  const pooled = new Metric("pooled", "RSS of one pool process, after every session's stream", "MB");
  const separate = new Metric("separate", "RSS of N hosts of their own, summed, after every session's stream", "MB");
  const floor = new Metric("floor", "a bare Node process", "MB");
  for (let round = -1; round < options.runs; round++) {
    const bare = await floorRss(options);
    if (round >= 0) floor.add("floor", bare);
    for (const count of options.counts) {
      const inPool = await pooledRss(options, count);
      const apart = await separateRss(options, count);
      if (round < 0) continue;
      pooled.add(`N=${count}`, inPool);
      separate.add(`N=${count}`, apart);
    }
  }
  const median = (m: Metric, name: string) => m.summary(name)!.median;
  const bare = median(floor, "floor");
  console.log(`\npool (Node ${options.node}), medians of ${options.runs} rounds (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}); a bare Node process ${bare.toFixed(1)} MB`);
  for (const count of options.counts) {
    const name = `N=${count}`;
    console.log(`  N=${count}: one pool process ${pooled.cell(name)} · ${count} hosts of their own ${separate.cell(name)}`);
  }
  const first = options.counts[0]!;
  for (const count of options.counts.filter((n) => n > first)) {
    const name = `N=${count}`;
    const perPooled = (median(pooled, name) - median(pooled, `N=${first}`)) / (count - first);
    const perSeparate = (median(separate, name) - median(separate, `N=${first}`)) / (count - first);
    console.log(`  memory per extra session, ${first} → ${count}: pooled ${perPooled.toFixed(1)} MB = ${(perPooled / bare).toFixed(2)} x a bare Node process (goal ≤ 1.2 x); a process each ${perSeparate.toFixed(1)} MB = ${(perSeparate / bare).toFixed(2)} x`);
  }
}

/**
 * `npx tsx bench/pool-startup.ts [--runs N]`: how long a chat waits for its agent with the
 * bundled host's sessions in one process (`agent-host --pool`) against a process each: spawn →
 * the first get_state answered, for a process of its own, for the first session of a new pool
 * (the pool's process and its first worker) and for one more session in a running pool. Node 20
 * and 22, launched as the editor launches its host; rounds alternate; medians.
 */
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostMemoryLaunch } from "../extension/supervision/host-memory";
import { NODE20, NODE22, startAgent } from "./lib/agent";
import { startBenchLlm } from "./lib/llm";
import { BenchPool } from "./lib/pool";
import { summarize } from "./lib/stats";

async function main(): Promise<void> {
  const at = process.argv.indexOf("--runs");
  const runs = at > 0 ? Number(process.argv[at + 1]) : 7;
  const llm = await startBenchLlm();
  const cwd = mkdtempSync(path.join(os.tmpdir(), "pi-bench-pool-start-"));
  const editorLaunch = hostMemoryLaunch(process.platform, process.env, false);
  const figures = new Map<string, number[]>();
  const add = (name: string, ms: number) => figures.set(name, [...(figures.get(name) ?? []), ms]);
  try {
    for (let round = -1; round < runs; round++) {
      for (const node of [20, 22] as const) {
        const order = round % 2 === 0 ? ["process", "pool"] : ["pool", "process"];
        for (const mode of order) {
          if (mode === "process") {
            const { agent, startMs } = await startAgent(node === 20 ? "host@20" : "host@22", { baseUrl: llm.baseUrl, cwd, editorLaunch });
            await agent.stop();
            if (round >= 0) add(`Node ${node}: a process of its own`, startMs);
            continue;
          }
          const t0 = performance.now();
          const pool = new BenchPool({ node: node === 20 ? NODE20 : NODE22, baseUrl: llm.baseUrl, cwd, editorLaunch, maxYoungGenerationSizeMb: 3 });
          await pool.open("a");
          const t1 = performance.now();
          await pool.open("b");
          const t2 = performance.now();
          await pool.stop();
          if (round < 0) continue;
          add(`Node ${node}: the first session of a new pool`, t1 - t0);
          add(`Node ${node}: one more session in a running pool`, t2 - t1);
        }
      }
    }
  } finally {
    await llm.close();
    rmSync(cwd, { recursive: true, force: true });
  }
  console.log(`spawn → first get_state answered, medians of ${runs} (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`);
  for (const [name, values] of figures) console.log(`  ${name}: ${summarize(values)!.median.toFixed(1)} ms (${values.map((v) => v.toFixed(0)).join(", ")})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
